/**
 * The JSON Schema of a desired-state file, generated from the resource descriptors so that the
 * structure is written once. `schemas/acctsync.schema.json` is this function's output; a test fails
 * when the committed file lags behind the descriptors.
 */
import { apiVariablePatterns } from './api-variables.js';
import {
  objectSchema,
  partialOf,
  sourceDef,
  sourceSchema,
  variableName,
  type Schema,
} from './field-schema.js';
import { aTitleAtStart } from '../resources/index.js';
import { guardsSchema } from './guards.js';
import { configLayout, entryMembers, lifecycleMembers, namePattern, type MapLayout } from './layout.js';
import { movedSchema } from './moved-schema.js';

function entrySchema(map: MapLayout): Schema {
  const children = Object.fromEntries(
    map.children.map((c) => [
      c.member,
      {
        description: `The ${c.descriptor.titlePlural} of this object.`,
        type: 'array',
        items: { $ref: `#/$defs/${c.descriptor.kind}` },
      },
    ]),
  );
  if (!map.variants) {
    const d = map.kinds[0]!;
    return objectSchema(
      d.fields,
      { ...children, ...entryMembers },
      `${aTitleAtStart(d)}, keyed by its logical name.`,
    );
  }
  const { members, shared } = map.variants;
  const variants = Object.fromEntries(
    members.map(({ member, descriptor }) => {
      const own = Object.fromEntries(Object.entries(descriptor.fields).filter(([n]) => !(n in shared)));
      return [member, objectSchema(own, {}, `${aTitleAtStart(descriptor)}.`)];
    }),
  );
  return {
    ...objectSchema(
      shared,
      { ...variants, ...children, ...entryMembers },
      `Exactly one of ${members.map((m) => m.member).join(', ')}.`,
    ),
    oneOf: members.map(({ member }) => ({ required: [member] })),
  };
}

function valuesSchema(description: string): Schema {
  return {
    description,
    type: 'object',
    propertyNames: { pattern: namePattern },
    additionalProperties: {
      type: ['string', 'number', 'boolean', 'object'],
      if: { type: 'object' },
      then: {
        type: 'object',
        properties: {
          env: { type: 'string', pattern: variableName, description: 'Environment variable name.' },
          file: { type: 'string', minLength: 1, description: 'Path of a file, relative to this YAML file.' },
        },
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
      },
    },
  };
}

function environmentsSchema(): Schema {
  return {
    description:
      'The environments (accounts) this config describes: the base is every file not listed as an overlay. See docs/environments.md.',
    type: 'object',
    propertyNames: { pattern: namePattern },
    minProperties: 1,
    additionalProperties: {
      type: 'object',
      properties: {
        paths: {
          description: "This environment's overlay files or directories, relative to this file.",
          type: 'array',
          items: { type: 'string', minLength: 1 },
        },
        extends: {
          description: 'Another environment whose overlays apply first.',
          type: 'string',
          pattern: namePattern,
        },
        scope: {
          description: "Overrides the config's scope for this environment.",
          type: 'string',
          pattern: namePattern,
        },
        api_url_env: {
          description:
            "The variable holding this environment's API URL (default SVC_API_URL): SVC_API_URL or <PREFIX>_SVC_API_URL.",
          type: 'string',
          pattern: apiVariablePatterns.url,
        },
        api_key_env: {
          description:
            "The variable holding this environment's API key (default SVC_API_KEY): SVC_API_KEY or <PREFIX>_SVC_API_KEY.",
          type: 'string',
          pattern: apiVariablePatterns.key,
        },
        values: valuesSchema("This environment's values for `{var: name}`, over the defaults."),
      },
      additionalProperties: false,
    },
  };
}

/** The entry schema of each map and the item schema of each child kind, after the value source. */
function definitions(): Schema {
  const defs: Schema = { [sourceDef]: sourceSchema() };
  for (const map of configLayout) {
    defs[map.key] = entrySchema(map);
    for (const c of map.children)
      defs[c.descriptor.kind] = objectSchema(c.fields, lifecycleMembers, `${aTitleAtStart(c.descriptor)}.`);
  }
  return defs;
}

/** One member per config map, in the config's order. */
function byMap(schemaOf: (map: MapLayout) => Schema): Schema {
  return Object.fromEntries(configLayout.map((map) => [map.key, schemaOf(map)]));
}

function mapSchema(map: MapLayout): Schema {
  return {
    description: `${map.kinds.map((d) => d.title).join(', ')}: a map from logical name to object.`,
    type: 'object',
    propertyNames: { pattern: namePattern },
    additionalProperties: { $ref: `#/$defs/${map.key}` },
  };
}

function patchSchema(map: MapLayout, entry: Schema): Schema {
  return {
    description: `Changes to base ${map.key} by logical name (JSON Merge Patch: maps merge, lists replace, null removes).`,
    type: 'object',
    propertyNames: { pattern: namePattern },
    additionalProperties: partialOf(entry),
  };
}

function dropSchema(map: MapLayout): Schema {
  return {
    description: `Logical names of base ${map.key} this environment does not have.`,
    type: 'array',
    items: { type: 'string', pattern: namePattern },
  };
}

/** The JSON Schema (2020-12) of one desired-state file. */
export function buildConfigSchema(): Schema {
  const defs = definitions();
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'acctsync desired state',
    description: 'One file of the desired state of a platform account, managed by acctsync.',
    type: 'object',
    properties: {
      version: { description: 'Format version of this file; always 1.', const: 1 },
      scope: {
        description:
          'Ownership scope (default `default`): objects marked with another scope are never touched.',
        type: 'string',
        pattern: namePattern,
      },
      moved: movedSchema(),
      ...byMap(mapSchema),
      environments: environmentsSchema(),
      guards: guardsSchema,
      values: valuesSchema('Default values for `{var: name}`; an environment may set its own.'),
      patch: {
        description: "An environment's overlay only: changes to objects of the base.",
        type: 'object',
        properties: byMap((map) => patchSchema(map, defs[map.key] as Schema)),
        additionalProperties: false,
      },
      drop: {
        description: "An environment's overlay only: objects of the base this environment does not have.",
        type: 'object',
        properties: byMap(dropSchema),
        additionalProperties: false,
      },
    },
    required: ['version'],
    additionalProperties: false,
    $defs: defs,
  };
}

/** Where the committed schema file sits in the installed package (`schemas/` ships with it). */
export const schemaFileUrl = new URL('../../schemas/acctsync.schema.json', import.meta.url);

/** The schema file as committed: two-space indent, trailing newline. */
export function schemaText(): string {
  return `${JSON.stringify(buildConfigSchema(), null, 2)}\n`;
}
