/**
 * The TLS edges a plan changes, each as it is (the live edge, its IP policies' live rules) and as it
 * will be (the desired edge, its IP policies' desired rules), in the evaluator's model. An edge
 * changes when an operation touches it, an IP policy it uses before or after, or a rule of one.
 */
import type { LiveObject, LiveState } from '../live/index.js';
import type { Operation, Plan } from '../plan-format/index.js';
import type { DesiredState } from '../resources/index.js';
import { desiredTrafficModel, type TrafficEdge, type TrafficIpPolicy } from '../traffic/index.js';
import { liveTrafficEdge, liveIpPolicies } from './live-edges.js';

/** An edge with the IP policies its references name. */
export interface EdgeSide {
  readonly edge: TrafficEdge;
  readonly ipPolicies: ReadonlyMap<string, TrafficIpPolicy>;
}

export interface ChangedEdge {
  readonly key: string;
  readonly before: EdgeSide;
  readonly after: EdgeSide;
  /** The ids of the operations that change it, in plan order. */
  readonly operations: readonly string[];
}

const edgeKind = 'tls_edges';

/** The live id of the edge the desired edge `key` is now: paired, or the old half of a replace. */
function liveEdgeId(key: string, plan: Plan): string | undefined {
  const paired = plan.resolvedIds[key];
  if (paired !== undefined) return paired;
  return plan.operations.find((op) => op.kind === edgeKind && op.key === key && op.liveId !== undefined)
    ?.liveId;
}

/** The IP policies (desired keys and live ids) an operation changes: its own, or its rule's. */
function policiesTouched(
  op: Operation,
  desired: DesiredState,
  live: ReadonlyMap<string, LiveObject>,
): string[] {
  if (op.kind === 'ip_policies') return [op.key, ...(op.liveId === undefined ? [] : [op.liveId])];
  if (op.kind !== 'ip_policy_rules') return [];
  const parentKey = op.parentKey ?? desired.objects.find((o) => o.key === op.key)?.parentKey;
  const parentId = op.liveId === undefined ? undefined : live.get(op.liveId)?.parentId;
  return [...(parentKey === undefined ? [] : [parentKey]), ...(parentId === undefined ? [] : [parentId])];
}

/** Every IP policy a side's edge may name: its restriction's and its restrict-ips actions'. */
function referenced(edge: TrafficEdge): string[] {
  const fromActions = (edge.policy?.inbound ?? []).flatMap((rule) =>
    rule.actions.flatMap((a) => {
      const named = a.config?.ip_policies;
      return Array.isArray(named) ? named.filter((n): n is string => typeof n === 'string') : [];
    }),
  );
  return [...(edge.ipRestriction?.ipPolicies ?? []), ...fromActions];
}

/**
 * Whether anything on the edge can refuse a connection: with neither an enabled IP restriction nor
 * an enabled policy with inbound rules, every connection is allowed, so no outcome can change.
 */
function filtersTraffic(edge: TrafficEdge): boolean {
  const restricted = edge.ipRestriction?.enabled === true;
  const ruled = edge.policy?.enabled === true && edge.policy.inbound.length > 0;
  return restricted || ruled;
}

/**
 * The TLS edges the plan changes that exist both before and after (a new edge has no before to
 * compare, a deleted one no after) and that filter traffic on either side, in the desired state's
 * order. `cwd` is where the config's
 * files are, for the rules' file:line.
 */
export async function changedEdges(
  plan: Plan,
  desired: DesiredState,
  live: LiveState,
  cwd?: string,
): Promise<ChangedEdge[]> {
  const liveById = new Map(live.objects.map((o) => [o.id, o]));
  const touched = plan.operations
    .filter((op) => op.interim !== true)
    .map((op) => ({ op, policies: new Set(policiesTouched(op, desired, liveById)) }));
  const candidates = desired.objects.flatMap((edge) => {
    if (edge.kind !== edgeKind) return [];
    const liveId = liveEdgeId(edge.key, plan);
    const liveEdge = liveId === undefined ? undefined : liveById.get(liveId);
    return liveEdge === undefined ? [] : [{ key: edge.key, liveEdge }];
  });
  if (candidates.length === 0) return [];
  const model = await desiredTrafficModel(desired, cwd);
  const livePolicies = liveIpPolicies(live, plan.resolvedIds, desired);
  // A desired edge may name a policy the config does not manage, by id: its rules are the live ones.
  const afterPolicies = new Map([...livePolicies, ...model.ipPolicies]);
  const out: ChangedEdge[] = [];
  for (const { key, liveEdge } of candidates) {
    const after = model.edges.get(key);
    if (after === undefined) continue;
    const before = liveTrafficEdge(key, liveEdge);
    if (!filtersTraffic(before) && !filtersTraffic(after)) continue;
    const refs = new Set([...referenced(before), ...referenced(after)]);
    const operations = touched
      .filter(({ op, policies }) => op.key === key || [...policies].some((p) => refs.has(p)))
      .map(({ op }) => op.id);
    if (operations.length === 0) continue;
    out.push({
      key,
      before: { edge: before, ipPolicies: livePolicies },
      after: { edge: after, ipPolicies: afterPolicies },
      operations,
    });
  }
  return out;
}
