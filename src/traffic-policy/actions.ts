/**
 * The action types a TLS edge's rules may use: every action whose reference page lists the
 * `on_tcp_connect` phase, with the configuration each documents for TLS traffic, checked member by
 * member.
 */
import { didYouMean } from '../suggest.js';
import { isPlainObject } from '../plain-object.js';

/** What a configuration member holds: a type, or one of a few strings. */
type MemberKind = 'bool' | 'string' | 'list<string>' | 'map' | 'list<map>' | readonly string[];

interface ActionType {
  readonly source: string;
  /** The documented members. */
  readonly config: Readonly<Record<string, MemberKind>>;
  readonly required?: readonly string[];
}

const actions = 'https://ngrok.com/docs/traffic-policy/actions';

const tlsVersion = ['1.2', '1.3'];

export const policyActions: Readonly<Record<string, ActionType>> = {
  'close-connection': { source: `${actions}/close-connection`, config: {} },
  deny: { source: `${actions}/deny`, config: {} },
  'forward-internal': {
    source: `${actions}/forward-internal`,
    config: { url: 'string', on_error: ['halt', 'continue'] },
    required: ['url'],
  },
  log: { source: `${actions}/log`, config: { metadata: 'map' }, required: ['metadata'] },
  'restrict-ips': {
    source: `${actions}/restrict-ips`,
    config: { enforce: 'bool', allow: 'list<string>', deny: 'list<string>', ip_policies: 'list<string>' },
  },
  'set-vars': { source: `${actions}/set-vars`, config: { vars: 'list<map>' }, required: ['vars'] },
  'terminate-tls': {
    source: `${actions}/terminate-tls`,
    config: {
      min_version: tlsVersion,
      max_version: tlsVersion,
      server_private_key: 'string',
      server_certificate: 'string',
      mutual_tls_certificate_authorities: 'list<string>',
      mutual_tls_verification_strategy: ['require-and-verify', 'require-any', 'request'],
    },
  },
};

/** One problem with an action, at a path below the action (`['type']`, `['config', 'allow']`). */
interface ActionProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly hint?: string;
}

function holds(kind: MemberKind, value: unknown): boolean {
  if (typeof kind !== 'string') return kind.includes(String(value));
  switch (kind) {
    case 'bool':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'list<string>':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'map':
      return isPlainObject(value);
    case 'list<map>':
      return Array.isArray(value) && value.every((v) => isPlainObject(v));
  }
}

/** `a list<string>`, `one of 1.2, 1.3`. */
function kindText(kind: MemberKind): string {
  return typeof kind === 'string' ? `a ${kind}` : `one of ${kind.join(', ')}`;
}

function configProblems(type: string, spec: ActionType, config: unknown): ActionProblem[] {
  const members = spec.config;
  const given = config === null || config === undefined ? {} : config;
  if (!isPlainObject(given))
    return [{ path: ['config'], message: `the ${type} action's config must be an object` }];
  const out: ActionProblem[] = [];
  for (const [key, value] of Object.entries(given)) {
    // Own members only: a config member named like an Object method (`constructor`) is unknown.
    const kind = Object.hasOwn(members, key) ? members[key] : undefined;
    if (kind === undefined) {
      const hint = didYouMean(key, Object.keys(members));
      const known = Object.keys(members);
      out.push({
        path: ['config', key],
        message:
          known.length === 0
            ? `the ${type} action takes no configuration on a TLS edge; found ${key}`
            : `unknown member ${key} of the ${type} action's config (it takes ${known.join(', ')})`,
        ...(hint === undefined ? {} : { hint }),
      });
    } else if (!holds(kind, value)) {
      out.push({ path: ['config', key], message: `${key} of the ${type} action must be ${kindText(kind)}` });
    }
  }
  for (const key of spec.required ?? []) {
    if (!Object.hasOwn(given, key))
      out.push({ path: ['config'], message: `the ${type} action needs config.${key}` });
  }
  return out;
}

/** What is wrong with one action of a rule: an unknown type, or its configuration. */
export function checkPolicyAction(action: Readonly<Record<string, unknown>>): ActionProblem[] {
  const type = String(action.type);
  const spec = Object.hasOwn(policyActions, type) ? policyActions[type] : undefined;
  if (spec === undefined) {
    const hint = didYouMean(type, Object.keys(policyActions));
    return [
      {
        path: ['type'],
        message: `unknown action type ${type} (a TLS edge takes ${Object.keys(policyActions).join(', ')})`,
        ...(hint === undefined ? {} : { hint }),
      },
    ];
  }
  return configProblems(type, spec, action.config);
}
