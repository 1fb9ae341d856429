/**
 * The live account as the evaluator reads it: a TLS edge's record (its modules as the service
 * answers them, IP policies as `Ref`s) and each IP policy's live rules, by id.
 */
import type { LiveObject, LiveState } from '../live/index.js';
import type { DesiredState } from '../resources/index.js';
import type { TrafficAction, TrafficEdge, TrafficIpPolicy, TrafficRule } from '../traffic/index.js';
import { isPlainObject } from '../plain-object.js';

function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isPlainObject(value) ? value : undefined;
}

function listOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** An id out of a live `Ref` (`{id, uri}`) or a plain id. */
function refId(value: unknown): string | undefined {
  const id = isPlainObject(value) ? value.id : value;
  return typeof id === 'string' ? id : undefined;
}

function inboundRules(policy: Readonly<Record<string, unknown>>): TrafficRule[] {
  return listOf(policy.inbound).map((raw, i) => {
    const rule = record(raw) ?? {};
    const name = typeof rule.name === 'string' && rule.name !== '' ? rule.name : `inbound[${i}]`;
    const actions = listOf(rule.actions).flatMap((a): TrafficAction[] => {
      const action = record(a);
      if (action === undefined || typeof action.type !== 'string') return [];
      const config = record(action.config);
      return [{ type: action.type, ...(config === undefined ? {} : { config }) }];
    });
    const expressions = listOf(rule.expressions).filter((e): e is string => typeof e === 'string');
    return { name, expressions, actions };
  });
}

/** The live edge, under the key of the desired edge it is paired with. */
export function liveTrafficEdge(key: string, edge: LiveObject): TrafficEdge {
  const { record: fields } = edge;
  const ipRestriction = record(fields.ip_restriction);
  const mutualTls = record(fields.mutual_tls);
  const policy = record(fields.policy);
  return {
    key,
    hostports: listOf(fields.hostports).filter((h): h is string => typeof h === 'string'),
    ...(ipRestriction === undefined
      ? {}
      : {
          ipRestriction: {
            enabled: ipRestriction.enabled !== false,
            ipPolicies: listOf(ipRestriction.ip_policies).flatMap((r) => refId(r) ?? []),
          },
        }),
    ...(mutualTls === undefined ? {} : { mutualTls: { enabled: mutualTls.enabled !== false } }),
    ...(policy === undefined
      ? {}
      : { policy: { enabled: policy.enabled !== false, inbound: inboundRules(policy) } }),
  };
}

/**
 * Every live IP policy with its live rules, by id, named as the config names the policy it is
 * paired with (`resolvedIds`), else by its id.
 */
export function liveIpPolicies(
  live: LiveState,
  resolvedIds: Readonly<Record<string, string>>,
  desired: DesiredState,
): Map<string, TrafficIpPolicy> {
  const names = new Map<string, string>();
  for (const o of desired.objects) {
    const id = resolvedIds[o.key];
    if (o.kind === 'ip_policies' && id !== undefined) names.set(id, o.name);
  }
  const out = new Map<string, { name: string; rules: TrafficIpPolicy['rules'][number][] }>();
  for (const o of live.objects)
    if (o.kind === 'ip_policies') out.set(o.id, { name: names.get(o.id) ?? o.id, rules: [] });
  for (const o of live.objects) {
    const { cidr, action } = o.record;
    if (o.kind !== 'ip_policy_rules' || o.parentId === undefined || typeof cidr !== 'string') continue;
    if (action === 'allow' || action === 'deny') out.get(o.parentId)?.rules.push({ cidr, action });
  }
  return out;
}
