/**
 * The action types a TLS edge's rules may use, from the platform's traffic-policy action reference,
 * with the configuration each documents for TLS traffic. A type whose configuration the reference
 * gives is checked member by member; `terminate-tls` is known by name only.
 */
import { didYouMean } from '../suggest.js';
import { isPlainObject } from '../plain-object.js';

/** What a configuration member holds. */
type MemberKind = 'bool' | 'list<string>' | 'map';

interface ActionType {
  readonly source: string;
  /** The documented members, or undefined when the configuration is not checked. */
  readonly config?: Readonly<Record<string, MemberKind>>;
  readonly required?: readonly string[];
}

const actions = 'https://ngrok.com/docs/traffic-policy/actions';

export const policyActions: Readonly<Record<string, ActionType>> = {
  deny: { source: `${actions}/deny`, config: {} },
  log: { source: `${actions}/log`, config: { metadata: 'map' }, required: ['metadata'] },
  'restrict-ips': {
    source: `${actions}/restrict-ips`,
    config: { enforce: 'bool', allow: 'list<string>', deny: 'list<string>', ip_policies: 'list<string>' },
  },
  'terminate-tls': { source: `${actions}/terminate-tls` },
};

/** One problem with an action, at a path below the action (`['type']`, `['config', 'allow']`). */
interface ActionProblem {
  readonly path: readonly (string | number)[];
  readonly message: string;
  readonly hint?: string;
}

function holds(kind: MemberKind, value: unknown): boolean {
  switch (kind) {
    case 'bool':
      return typeof value === 'boolean';
    case 'list<string>':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'map':
      return isPlainObject(value);
  }
}

function configProblems(type: string, spec: ActionType, config: unknown): ActionProblem[] {
  const members = spec.config;
  if (members === undefined) return [];
  const given = config === null || config === undefined ? {} : config;
  if (!isPlainObject(given))
    return [{ path: ['config'], message: `the ${type} action's config must be an object` }];
  const out: ActionProblem[] = [];
  for (const [key, value] of Object.entries(given)) {
    const kind = members[key];
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
      out.push({ path: ['config', key], message: `${key} of the ${type} action must be a ${kind}` });
    }
  }
  for (const key of spec.required ?? []) {
    if (!(key in given)) out.push({ path: ['config'], message: `the ${type} action needs config.${key}` });
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
