/**
 * The live account as the evaluator reads it: a TLS edge's record (its modules as the service
 * answers them, IP policies as `Ref`s) and each IP policy's live rules, by id.
 */
import type { LiveObject, LiveState } from '../live/index.js';
import type { DesiredState } from '../resources/index.js';
import { trafficEdgeOf, type TrafficEdge, type TrafficIpPolicy } from '../traffic/index.js';
import { isPlainObject } from '../plain-object.js';

/** An id out of a live `Ref` (`{id, uri}`) or a plain id. */
function refId(value: unknown): string[] {
  const id = isPlainObject(value) ? value.id : value;
  return typeof id === 'string' ? [id] : [];
}

/** The live edge, under the key of the desired edge it is paired with. */
export function liveTrafficEdge(key: string, edge: LiveObject): TrafficEdge {
  return trafficEdgeOf(key, edge.record, { ipPolicies: (refs) => refs.flatMap(refId) });
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
