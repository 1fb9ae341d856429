/**
 * Dependencies between operations, from the descriptors' references, and a deterministic order
 * that honours them: what is referenced is created before its referrers, referrers are updated off
 * an object or deleted before that object is deleted, a replace runs create-new, repoint,
 * delete-old (or delete-old first when the two would collide on their natural key), and a unique
 * value is released before another object claims it. A swap of unique values is a cycle of claims:
 * replaces in it delete first, updates in it get a first PATCH that only releases.
 */
import {
  descriptorOf,
  isObjectKey,
  mapReferences,
  writableValues,
  type DesiredObject,
  type Fields,
} from '../resources/index.js';
import { UserError } from '../errors.js';
import type { ClaimSides } from './claims.js';
import { compare, type LiveObject } from './live.js';
import type { Operation } from './types.js';

/** Every reference inside plain values: keys or ids, as they are written there. */
export function referencesIn(fields: Fields, values: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  mapReferences(fields, { ...values }, (ref) => {
    out.push(ref);
    return ref;
  });
  return out;
}

export interface OrderContext {
  readonly desired: ReadonlyMap<string, DesiredObject>;
  readonly live: readonly LiveObject[];
  /** Keys whose replace deletes the old object before creating the new one. */
  readonly deleteFirst: ReadonlySet<string>;
  /** The unique values each operation claims and releases, by operation id. */
  readonly claims: ReadonlyMap<string, ClaimSides>;
}

export interface Ordered {
  readonly operations: Operation[];
  /** Deletes that will fail because an object outside this plan still references the target. */
  readonly blocked: string[];
}

const actionRank = { adopt: 0, create: 1, update: 2, delete: 3 } as const;

/**
 * Fills `dependsOn` and sorts `ops` topologically, ties broken by action then id. Cycles of claims
 * are broken as the module comment says; a `UserError` names the operations when none can be.
 */
export function orderOperations(ops: readonly Operation[], ctx: OrderContext): Ordered {
  const deleteFirst = new Set(ctx.deleteFirst);
  const swapped = new Set<string>();
  const split = new Set<string>();
  for (;;) {
    const current = ops.flatMap((op) => {
      const interim = split.has(op.id) ? ctx.claims.get(op.id)?.interim : undefined;
      const own = swapped.has(op.key) && op.replaces !== undefined ? withSwapReason(op) : op;
      return interim === undefined ? [own] : [interim, own];
    });
    const { deps, blocked } = dependencies(current, ctx, deleteFirst, split);
    const cycle = firstCycle(current, deps);
    if (cycle === undefined) return { operations: topologicalOrder(current, deps), blocked };
    let broken = false;
    for (const op of cycle) {
      const claims = ctx.claims.get(op.id)?.claims ?? [];
      if (op.action !== 'create' || op.replaces === undefined || claims.length === 0) continue;
      if (deleteFirst.has(op.key)) continue;
      deleteFirst.add(op.key);
      swapped.add(op.key);
      broken = true;
    }
    for (const op of broken ? [] : cycle) {
      if (ctx.claims.get(op.id)?.interim === undefined || split.has(op.id)) continue;
      split.add(op.id);
      broken = true;
    }
    if (!broken) {
      throw new UserError('no safe order: these operations each wait for another (nothing was changed)', {
        details: cycle.map((op) => op.id).sort(compare),
      });
    }
  }
}

function withSwapReason(op: Operation): Operation {
  const why = 'the old object is deleted first: its unique value is briefly unclaimed (a swap)';
  return { ...op, reason: op.reason === undefined ? why : `${op.reason}; ${why}` };
}

/** The dependencies of each operation, and the deletes that will fail whatever the order. */
function dependencies(
  ops: readonly Operation[],
  ctx: OrderContext,
  deleteFirstKeys: ReadonlySet<string>,
  split: ReadonlySet<string>,
): { deps: Map<string, Set<string>>; blocked: string[] } {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const deps = new Map<string, Set<string>>(ops.map((op) => [op.id, new Set<string>()]));
  const need = (op: Operation, on: string | undefined): void => {
    if (on !== undefined && on !== op.id && byId.has(on)) deps.get(op.id)?.add(on);
  };
  const explicitDeletes = new Map(ops.filter((op) => op.action === 'delete').map((op) => [op.liveId, op.id]));
  const liveById = new Map(ctx.live.map((l) => [l.id, l]));
  // A child the service deletes with its parent (a route with its edge) has no delete of its own:
  // whatever it references must wait for the parent's delete instead.
  const deleteOf = (id: string): string | undefined => {
    for (
      let l = liveById.get(id);
      l !== undefined;
      l = l.parentId === undefined ? undefined : liveById.get(l.parentId)
    ) {
      const op = explicitDeletes.get(l.id);
      if (op !== undefined) return op;
      if (descriptorOf(l.kind).parent === undefined) return undefined;
    }
    return explicitDeletes.get(id);
  };
  const changeOf = new Map(
    ops.filter((op) => op.action === 'update' || op.action === 'adopt').map((op) => [op.liveId, op.id]),
  );

  for (const op of ops) {
    if (op.action === 'delete' || op.interim === true) continue;
    const o = ctx.desired.get(op.key);
    if (o === undefined) continue;
    const refs = referencesIn(descriptorOf(o.kind).fields, o.fields);
    if (o.parentKey !== undefined) refs.push(o.parentKey);
    for (const ref of refs) if (isObjectKey(ref)) need(op, `create ${ref}`);
    if (op.action === 'create' && op.replaces !== undefined && deleteFirstKeys.has(op.key)) {
      need(op, ops.find((d) => d.action === 'delete' && d.replaces === op.key)?.id);
    }
  }

  // Who references what, built once: a delete asks for its target's referrers, not every object.
  const referrersOf = new Map<string, LiveObject[]>();
  for (const referrer of ctx.live) {
    const d = descriptorOf(referrer.kind);
    const targets = new Set(referencesIn(d.fields, writableValues(d.fields, { ...referrer.record })));
    // A child addresses its parent through its path (routes), or through a field (rules).
    if (referrer.parentId !== undefined && d.parent !== undefined) targets.add(referrer.parentId);
    for (const target of targets) {
      if (target === referrer.id) continue;
      const list = referrersOf.get(target);
      if (list === undefined) referrersOf.set(target, [referrer]);
      else list.push(referrer);
    }
  }

  const blocked: string[] = [];
  for (const op of ops) {
    if (op.action !== 'delete' || op.liveId === undefined) continue;
    const target = op.liveId;
    const deleteFirst = op.replaces !== undefined && deleteFirstKeys.has(op.replaces);
    if (op.replaces !== undefined && !deleteFirst) need(op, `create ${op.replaces}`);
    for (const referrer of referrersOf.get(target) ?? []) {
      const isChild = referrer.parentId === target && descriptorOf(referrer.kind).parent !== undefined;
      const gone = deleteOf(referrer.id);
      const moved = changeOf.get(referrer.id);
      if (gone !== undefined) need(op, gone);
      else if (moved !== undefined && !deleteFirst) need(op, moved);
      else if (!isChild && moved === undefined) {
        blocked.push(
          `${op.key} (${target}) is still referenced by ${referrer.id}, which this plan does not change: its delete will fail until that reference is removed`,
        );
      }
    }
  }

  // A unique value is released before anyone claims it; an update split in two claims in its
  // final PATCH what its first PATCH released.
  const sidesOf = (op: Operation): ClaimSides | undefined => {
    if (op.interim === true) {
      const sides = ctx.claims.get(`update ${op.key}`);
      return sides === undefined ? undefined : { claims: [], releases: sides.releases };
    }
    const sides = ctx.claims.get(op.id);
    return sides !== undefined && split.has(op.id) ? { claims: sides.claims, releases: [] } : sides;
  };
  const releasers = new Map<string, string[]>();
  for (const op of ops) {
    for (const key of sidesOf(op)?.releases ?? []) {
      const list = releasers.get(key);
      if (list === undefined) releasers.set(key, [op.id]);
      else list.push(op.id);
    }
  }
  for (const op of ops) {
    if (split.has(op.id)) need(op, `release ${op.key}`);
    for (const key of sidesOf(op)?.claims ?? []) for (const r of releasers.get(key) ?? []) need(op, r);
  }

  return { deps, blocked };
}

/** The operations of one cycle of `deps` (a strongly connected component), or undefined. */
function firstCycle(
  ops: readonly Operation[],
  deps: ReadonlyMap<string, ReadonlySet<string>>,
): Operation[] | undefined {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  let found: string[] | undefined;
  const visit = (id: string): void => {
    index.set(id, index.size);
    low.set(id, index.get(id) ?? 0);
    stack.push(id);
    onStack.add(id);
    for (const next of deps.get(id) ?? []) {
      if (found !== undefined) return;
      if (!index.has(next)) {
        visit(next);
        low.set(id, Math.min(low.get(id) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(id, Math.min(low.get(id) ?? 0, index.get(next) ?? 0));
    }
    if (found !== undefined || low.get(id) !== index.get(id)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === id) break;
    }
    if (component.length > 1) found = component;
  };
  for (const op of ops) if (found === undefined && !index.has(op.id)) visit(op.id);
  return found?.flatMap((id) => {
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
function topologicalOrder(
  ops: readonly Operation[],
  deps: ReadonlyMap<string, ReadonlySet<string>>,
): Operation[] {
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
  const ready = new ReadyHeap(before);
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

/** A binary min-heap by `before`. */
class ReadyHeap<T> {
  readonly #items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => boolean) {}

  push(item: T): void {
    const a = this.#items;
    a.push(item);
    for (let i = a.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(a[i]!, a[parent]!)) break;
      [a[i], a[parent]] = [a[parent]!, a[i]!];
      i = parent;
    }
  }

  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}
