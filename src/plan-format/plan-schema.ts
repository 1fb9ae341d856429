/**
 * The JSON Schema of a plan as `acctsync plan --output json` prints it (`schemas/plan.schema.json`,
 * written by `npm run gen:schema`). Its enums are the code's own lists, so a new reason code or
 * action cannot be left out of it.
 */
import { refSchema, requestSchema, requestsSchema } from './request-schema.js';
import { syncRefusalSchema } from './sync-refusal-schema.js';
import {
  changeCauses,
  operationActions,
  reasonCodes,
  trafficSampleSources,
  trafficVerdicts,
} from './types.js';

const summarySchema = {
  type: 'object',
  required: ['create', 'update', 'replace', 'delete', 'adopt', 'rename', 'unchanged', 'managed', 'removed'],
  additionalProperties: false,
  properties: {
    create: { $ref: '#/$defs/count' },
    update: { $ref: '#/$defs/count' },
    replace: { $ref: '#/$defs/count' },
    delete: { $ref: '#/$defs/count' },
    adopt: { $ref: '#/$defs/count' },
    rename: {
      description:
        'Objects kept under a new key (a moved entry, the same unique value, a renamed parent, an id: pin), with their field changes: never a delete.',
      $ref: '#/$defs/count',
    },
    unchanged: { $ref: '#/$defs/count' },
    managed: {
      description:
        'Live objects this scope manages: those carrying its marker and the children that would go with them.',
      $ref: '#/$defs/count',
    },
    removed: {
      description:
        'Live objects the plan removes: deletes, old halves of replaces, and the children the service deletes with them.',
      $ref: '#/$defs/count',
    },
  },
};

const optionsSchema = {
  type: 'object',
  required: ['adopt', 'noDelete'],
  additionalProperties: false,
  properties: {
    adopt: { type: 'boolean' },
    noDelete: { type: 'boolean' },
  },
};

const operationSchema = {
  type: 'object',
  required: ['id', 'action', 'kind', 'key', 'changes', 'dependsOn', 'reason_code', 'requests'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', description: '`<action> <key>`; deletes `delete <key>#<id>`.' },
    action: {
      enum: [...operationActions],
      description:
        "`rename` changes the key in the live object's ownership marker (with any field changes, in the same PATCH): the object and its id stay.",
    },
    kind: { type: 'string' },
    key: { type: 'string' },
    liveId: { type: 'string' },
    renamedFrom: {
      type: 'string',
      description: "On a rename: the key the live object's marker held before.",
    },
    parentKey: { type: 'string' },
    liveParentId: { type: 'string' },
    changes: {
      type: 'array',
      items: { $ref: '#/$defs/change' },
    },
    unchanged: {
      description:
        "Configured top-level fields that already have their desired value (update, adopt, a replace's create).",
      $ref: '#/$defs/count',
    },
    dependsOn: {
      type: 'array',
      items: { type: 'string' },
    },
    replaces: { type: 'string' },
    interim: {
      description:
        'A first PATCH of an update that only releases unique values another operation of the plan claims (one half of a swap); its id is `release <key>`.',
      const: true,
    },
    reason: { type: 'string', description: 'Why, for humans.' },
    reason_code: {
      description: 'Why, for machines. Codes are only ever added.',
      enum: [...reasonCodes],
    },
    cause: {
      description:
        'On updates, both halves of a replace and deletes: `config` (the config changed since acctsync last wrote the object), `drift` (the live object changed outside acctsync since), or `both`.',
      enum: [...changeCauses],
    },
    requests: requestsSchema,
    cascade: {
      description:
        "On deletes: what the service removes with the object (children depth first, the object's modules).",
      $ref: '#/$defs/cascade',
    },
  },
};

const changeSchema = {
  type: 'object',
  required: ['path'],
  additionalProperties: false,
  properties: {
    path: {
      type: 'array',
      minItems: 1,
      items: {
        anyOf: [{ type: 'string' }, { type: 'integer' }],
      },
    },
    before: {},
    after: {},
    sensitive: { const: true },
    forcesReplace: { const: true },
  },
};

const cascadeSchema = {
  type: 'object',
  required: ['objects', 'modules'],
  additionalProperties: false,
  properties: {
    objects: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kind', 'id', 'modules'],
        additionalProperties: false,
        properties: {
          kind: { type: 'string' },
          id: { type: 'string' },
          key: { type: 'string', description: 'Its logical key, when this scope manages it.' },
          parentId: { type: 'string' },
          modules: {
            type: 'array',
            items: { type: 'string' },
          },
        },
      },
    },
    modules: {
      type: 'array',
      items: { type: 'string' },
    },
  },
};

const observedSchema = {
  description:
    "The config's observed entries (observe: true), in key order: read and compared, never written. Present when the config observes any object.",
  type: 'array',
  items: {
    type: 'object',
    required: ['kind', 'key', 'liveId', 'changes'],
    additionalProperties: false,
    properties: {
      kind: { type: 'string' },
      key: { type: 'string' },
      liveId: { type: 'string' },
      changes: {
        description:
          "How the live object differs from its entry: `before` the live value, `after` the config's; empty when it matches.",
        type: 'array',
        items: { $ref: '#/$defs/change' },
      },
    },
  },
};

const lookalikesSchema = {
  description:
    'Entries the plan creates while unmanaged objects look like them (same natural key or description, or a unique value in common): sync refuses them (syncRefusal.guard `lookalike`) until --adopt takes the object over or the entry says `id: new`. Present when there are any.',
  type: 'array',
  items: {
    type: 'object',
    required: ['key', 'kind', 'objects'],
    additionalProperties: false,
    properties: {
      key: { type: 'string' },
      kind: { type: 'string' },
      objects: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kind', 'id', 'same'],
          additionalProperties: false,
          properties: {
            kind: { type: 'string' },
            id: { type: 'string' },
            same: { type: 'string', description: 'What it has in common with the entry.' },
          },
        },
      },
    },
  },
};

const unmanagedSchema = {
  description:
    "Live objects no scope's marker claims and no entry observes or adopts, by kind then id (objects of other scopes are not listed).",
  type: 'array',
  items: {
    type: 'object',
    required: ['kind', 'id'],
    additionalProperties: false,
    properties: {
      kind: { type: 'string' },
      id: { type: 'string' },
      name: {
        type: 'string',
        description: 'Its natural key (a domain, hostports, a CIDR) or else its description.',
      },
      parentId: { type: 'string', description: 'For nested kinds: the id of the object it belongs to.' },
    },
  },
};

const policySchema = {
  description: 'Broken --policy rules; absent when no policy was given.',
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['rule', 'severity', 'object', 'message'],
    properties: {
      rule: { type: 'string' },
      severity: { enum: ['error', 'warning'] },
      object: { type: 'string' },
      message: { type: 'string' },
      location: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'line', 'column'],
        properties: {
          file: { type: 'string' },
          line: { type: 'integer', minimum: 1 },
          column: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
};

const trafficOutcomeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['verdict', 'by'],
  properties: {
    verdict: { enum: [...trafficVerdicts] },
    by: {
      type: 'string',
      description:
        'What decided it (`rule office`, `IP policy office`, `default`: no module or rule refused it), or why it is not known offline.',
    },
  },
};

const trafficChangesSchema = {
  description:
    'The TLS edges the plan changes (the edge, an IP policy it uses or a rule of one) that exist before and after, each with the sample connections whose outcome differs between the live edge (`before`) and the desired one (`after`): docs/traffic-policy.md, "What-if in plans". Absent when the plan changes no such edge.',
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['edge', 'operations', 'samples', 'evaluated', 'changes'],
    properties: {
      edge: { type: 'string', description: "The edge's key (`tls_edges/db`)." },
      operations: {
        description: "The ids of the operations that change it: its own, its IP policies' and their rules'.",
        type: 'array',
        items: { type: 'string' },
      },
      samples: {
        description:
          "`tests`: the connections of the --traffic-tests that name the edge; `derived`: addresses inside and outside each range the edge's rules mention, and the addresses its expressions name.",
        enum: [...trafficSampleSources],
      },
      evaluated: { description: 'Sample connections run through both sides.', $ref: '#/$defs/count' },
      leftOut: {
        description: 'Samples past the bound of 64 per edge, not evaluated.',
        $ref: '#/$defs/count',
      },
      notEvaluated: {
        type: 'string',
        description:
          "Why no sample was evaluated (then `evaluated` is 0): the expression evaluations the edge may need, counted before any runs, are more than is left of the plan's what-if limit. The same inputs always give the same edges evaluated.",
      },
      changes: {
        description: 'The samples whose outcome changes; empty when none does.',
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['connection', 'before', 'after'],
          properties: {
            connection: { type: 'string', description: 'The client address, and its country when set.' },
            test: { type: 'string', description: 'The traffic test the connection came from.' },
            before: trafficOutcomeSchema,
            after: trafficOutcomeSchema,
          },
        },
      },
    },
  },
};

/** The plan schema as a JSON value. */
export function planSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://acctsync.dev/schemas/plan.schema.json',
    title: 'acctsync plan',
    description:
      'A plan as printed by `acctsync plan --output json` and saved by `--out` (formatVersion 2). Operations are in execution order. See docs/plan-output.md.',
    type: 'object',
    required: [
      'formatVersion',
      'createdAt',
      'scope',
      'configPaths',
      'desiredFingerprint',
      'liveFingerprint',
      'resolvedIds',
      'operations',
      'summary',
      'unmanaged',
      'notes',
      'options',
    ],
    additionalProperties: false,
    properties: {
      formatVersion: { const: 2 },
      createdAt: { type: 'string', format: 'date-time' },
      scope: { type: 'string', minLength: 1 },
      environment: {
        description: 'The environment the plan is for; present when the config declares environments.',
        type: 'string',
        minLength: 1,
      },
      configPaths: {
        type: 'array',
        items: { type: 'string' },
      },
      desiredFingerprint: {
        type: 'string',
        pattern: '^sha256:[0-9a-f]{64}$',
      },
      liveFingerprint: {
        type: 'string',
        pattern: '^sha256:[0-9a-f]{64}$',
      },
      resolvedIds: {
        description: 'Desired keys already bound to live ids.',
        type: 'object',
        additionalProperties: { type: 'string' },
      },
      operations: {
        type: 'array',
        items: { $ref: '#/$defs/operation' },
      },
      summary: summarySchema,
      observed: observedSchema,
      lookalikes: lookalikesSchema,
      unmanaged: unmanagedSchema,
      notes: {
        type: 'array',
        items: { type: 'string' },
      },
      options: optionsSchema,
      liveKinds: {
        type: 'array',
        items: { type: 'string' },
      },
      policy: policySchema,
      trafficChanges: trafficChangesSchema,
      syncRefusal: syncRefusalSchema,
    },
    $defs: {
      count: { type: 'integer', minimum: 0 },
      operation: operationSchema,
      change: changeSchema,
      request: requestSchema,
      ref: refSchema,
      cascade: cascadeSchema,
    },
  };
}

/** The text of `schemas/plan.schema.json`. */
export function planSchemaText(): string {
  return `${JSON.stringify(planSchema(), null, 2)}\n`;
}
