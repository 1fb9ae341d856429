/**
 * The graph side of ordering: finding a cycle among operations' dependencies, and the one
 * deterministic topological order once there is none.
 */
import { findCycle, MinHeap } from '../graph.js';
import { compare } from '../compare.js';
import type { Operation } from '../plan-format/index.js';

/** What each operation waits for, by operation id. */
type Dependencies = ReadonlyMap<string, ReadonlySet<string>>;

const actionRank = { adopt: 0, rename: 0, create: 1, update: 2, delete: 3 } as const;

/** The operations of one cycle of `deps` (a strongly connected component), or undefined. */
export function firstCycle(ops: readonly Operation[], deps: Dependencies): Operation[] | undefined {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const cycle = findCycle(byId.keys(), (id) => deps.get(id) ?? []);
  return cycle?.members.flatMap((id) => {
    const op = byId.get(id);
    return op === undefined ? [] : [op];
  });
}

const rankOf = (op: Operation): number => actionRank[op.action];

/** Whether `a` should start before `b` when both are ready: by action, then by id. */
function before(a: Operation, b: Operation): boolean {
  return rankOf(a) - rankOf(b) < 0 || (rankOf(a) === rankOf(b) && compare(a.id, b.id) < 0);
}

/**
 * Kahn's algorithm with a binary heap of ready operations: linear in operations and dependencies
 * (times a log), and deterministic: among ready operations the lowest (action, id) goes first.
 */
export function topologicalOrder(ops: readonly Operation[], deps: Dependencies): Operation[] {
  const waiting = new Map<string, number>();
  const dependants = new Map<string, string[]>();
  for (const op of ops) {
    const own = deps.get(op.id) ?? new Set<string>();
    waiting.set(op.id, own.size);
    for (const d of own) {
      const list = dependants.get(d);
      if (list === undefined) dependants.set(d, [op.id]);
      else list.push(op.id);
    }
  }
  const byId = new Map(ops.map((op) => [op.id, op]));
  const ready = new MinHeap(before);
  for (const op of ops) if (waiting.get(op.id) === 0) ready.push(op);
  const ordered: Operation[] = [];
  for (let next = ready.pop(); next !== undefined; next = ready.pop()) {
    ordered.push({ ...next, dependsOn: [...(deps.get(next.id) ?? [])].sort(compare) });
    for (const d of dependants.get(next.id) ?? []) {
      const left = (waiting.get(d) ?? 0) - 1;
      waiting.set(d, left);
      const op = byId.get(d);
      if (left === 0 && op !== undefined) ready.push(op);
    }
  }
  if (ordered.length < ops.length) {
    const stuck = ops.filter((op) => (waiting.get(op.id) ?? 0) > 0).map((op) => op.id);
    throw new Error(`dependency cycle among ${stuck.join(', ')}`);
  }
  return ordered;
}
