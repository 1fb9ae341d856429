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
  findReferences,
  isObjectKey,
  writableValues,
  type DesiredObject,
} from '../resources/index.js';
import { UserError } from '../errors.js';
import type { ClaimSides } from './claims.js';
import { firstCycle, topologicalOrder } from './dependency-graph.js';
import { compare } from '../compare.js';
import type { LiveObject } from '../live/index.js';
import type { Operation, OperationAction } from '../plan-format/index.js';

/** Actions that change a live object where it is (its referrers need not move). */
const inPlace = (action: OperationAction): boolean =>
  action === 'update' || action === 'adopt' || action === 'rename';

interface OrderContext {
  readonly desired: ReadonlyMap<string, DesiredObject>;
  readonly live: readonly LiveObject[];
  /** Keys whose replace deletes the old object before creating the new one. */
  readonly deleteFirst: ReadonlySet<string>;
  /** The unique values each operation claims and releases, by operation id. */
  readonly claims: ReadonlyMap<string, ClaimSides>;
}

interface Ordered {
  readonly operations: Operation[];
  /** Deletes that will fail because an object outside this plan still references the target. */
  readonly blocked: string[];
}

/** How the rounds so far broke cycles: replaces made to delete first (swaps), updates split in two. */
interface CycleBreaks {
  readonly deleteFirst: Set<string>;
  readonly swapped: Set<string>;
  readonly split: Set<string>;
}

/**
 * Fills `dependsOn` and sorts `ops` topologically, ties broken by action then id. Cycles of claims
 * are broken as the module comment says; a `UserError` names the operations when none can be.
 */
export function orderOperations(ops: readonly Operation[], ctx: OrderContext): Ordered {
  const breaks: CycleBreaks = { deleteFirst: new Set(ctx.deleteFirst), swapped: new Set(), split: new Set() };
  for (;;) {
    const current = withBreaks(ops, ctx, breaks);
    const { deps, blocked } = dependencies(current, ctx, breaks.deleteFirst, breaks.split);
    const cycle = firstCycle(current, deps);
    if (cycle === undefined) return { operations: topologicalOrder(current, deps), blocked };
    if (!breakCycle(cycle, ctx, breaks)) {
      throw new UserError('no safe order: these operations each wait for another (nothing was changed)', {
        details: cycle.map((op) => op.id).sort(compare),
      });
    }
  }
}

/** The operations as broken so far: a split update after its releasing PATCH, a swap saying so. */
function withBreaks(ops: readonly Operation[], ctx: OrderContext, breaks: CycleBreaks): Operation[] {
  return ops.flatMap((op) => {
    const interim = breaks.split.has(op.id) ? ctx.claims.get(op.id)?.interim : undefined;
    const own = breaks.swapped.has(op.key) && op.replaces !== undefined ? withSwapReason(op) : op;
    return interim === undefined ? [own] : [interim, own];
  });
}

/**
 * Records how to break `cycle`: its claiming replaces delete first; when it has none left, its
 * updates that can release in a PATCH of their own are split. False when nothing can be done.
 */
function breakCycle(cycle: readonly Operation[], ctx: OrderContext, breaks: CycleBreaks): boolean {
  let broken = false;
  for (const op of cycle) {
    const claims = ctx.claims.get(op.id)?.claims ?? [];
    if (op.action !== 'create' || op.replaces === undefined || claims.length === 0) continue;
    if (breaks.deleteFirst.has(op.key)) continue;
    breaks.deleteFirst.add(op.key);
    breaks.swapped.add(op.key);
    broken = true;
  }
  for (const op of broken ? [] : cycle) {
    if (ctx.claims.get(op.id)?.interim === undefined || breaks.split.has(op.id)) continue;
    breaks.split.add(op.id);
    broken = true;
  }
  return broken;
}

function withSwapReason(op: Operation): Operation {
  const why = 'the old object is deleted first: its unique value is briefly unclaimed (a swap)';
  return { ...op, reason: op.reason === undefined ? why : `${op.reason}; ${why}` };
}

/** The dependency sets being filled: an operation may wait only for another of the same plan. */
class DependencySets {
  readonly deps: Map<string, Set<string>>;

  constructor(ops: readonly Operation[]) {
    this.deps = new Map(ops.map((op) => [op.id, new Set<string>()]));
  }

  need(op: Operation, on: string | undefined): void {
    if (on !== undefined && on !== op.id && this.deps.has(on)) this.deps.get(op.id)?.add(on);
  }
}

/** The dependencies of each operation, and the deletes that will fail whatever the order. */
function dependencies(
  ops: readonly Operation[],
  ctx: OrderContext,
  deleteFirstKeys: ReadonlySet<string>,
  split: ReadonlySet<string>,
): { deps: Map<string, Set<string>>; blocked: string[] } {
  const sets = new DependencySets(ops);
  needWhatIsReferenced(ops, ctx, deleteFirstKeys, sets);
  const blocked = needReferrersMovedOff(ops, ctx, deleteFirstKeys, sets);
  needReleasesBeforeClaims(ops, ctx, split, sets);
  return { deps: sets.deps, blocked };
}

/** The keys of each desired object's nested items, at any depth, by the object's key. */
function nestedKeys(desired: ReadonlyMap<string, DesiredObject>): (key: string) => readonly string[] {
  const children = new Map<string, string[]>();
  for (const o of desired.values()) {
    if (o.parentKey === undefined) continue;
    const list = children.get(o.parentKey);
    if (list === undefined) children.set(o.parentKey, [o.key]);
    else list.push(o.key);
  }
  const below = (key: string): string[] => (children.get(key) ?? []).flatMap((k) => [k, ...below(k)]);
  return below;
}

/**
 * A create or update waits for the creation of what it references and of its parent; a
 * reference waits for the whole creation, the referenced object's nested items included (a
 * restriction switched to a new IP policy only once its rules exist); a replace that deletes
 * first waits for that delete.
 */
function needWhatIsReferenced(
  ops: readonly Operation[],
  ctx: OrderContext,
  deleteFirstKeys: ReadonlySet<string>,
  sets: DependencySets,
): void {
  const below = nestedKeys(ctx.desired);
  for (const op of ops) {
    if (op.action === 'delete' || op.interim === true) continue;
    const o = ctx.desired.get(op.key);
    if (o === undefined) continue;
    const refs = findReferences(descriptorOf(o.kind).fields, o.fields).map((r) => r.ref);
    const ancestors = new Set<string>();
    for (let p = o.parentKey; p !== undefined; p = ctx.desired.get(p)?.parentKey) ancestors.add(p);
    for (const ref of refs) {
      if (!isObjectKey(ref)) continue;
      sets.need(op, `create ${ref}`);
      // An item's link to its own parent (a rule's policy) is not a reference to wait on siblings for.
      if (!ancestors.has(ref)) for (const item of below(ref)) sets.need(op, `create ${item}`);
    }
    if (o.parentKey !== undefined) sets.need(op, `create ${o.parentKey}`);
    if (op.action === 'create' && op.replaces !== undefined && deleteFirstKeys.has(op.key)) {
      sets.need(op, ops.find((d) => d.action === 'delete' && d.replaces === op.key)?.id);
    }
  }
}

/** Who references what, built once: a delete asks for its target's referrers, not every object. */
function referrersByTarget(live: readonly LiveObject[]): Map<string, LiveObject[]> {
  const referrersOf = new Map<string, LiveObject[]>();
  for (const referrer of live) {
    const d = descriptorOf(referrer.kind);
    const values = writableValues(d.fields, { ...referrer.record });
    const targets = new Set(findReferences(d.fields, values).map((r) => r.ref));
    // A child addresses its parent through its path (routes), or through a field (rules).
    if (referrer.parentId !== undefined && d.parent !== undefined) targets.add(referrer.parentId);
    for (const target of targets) {
      if (target === referrer.id) continue;
      const list = referrersOf.get(target);
      if (list === undefined) referrersOf.set(target, [referrer]);
      else list.push(referrer);
    }
  }
  return referrersOf;
}

/**
 * The delete that removes a live object: its own, or the delete of the ancestor the service
 * deletes it with (a route with its edge), since such a child has no delete of its own.
 */
function deleteRemoving(
  ops: readonly Operation[],
  live: readonly LiveObject[],
): (id: string) => string | undefined {
  const explicitDeletes = new Map(ops.filter((op) => op.action === 'delete').map((op) => [op.liveId, op.id]));
  const liveById = new Map(live.map((l) => [l.id, l]));
  return (id) => {
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
}

/**
 * A delete waits for the new object of its replace (unless the replace deletes first), and for
 * every referrer to be deleted or updated off it; a referrer this plan leaves alone blocks it.
 */
function needReferrersMovedOff(
  ops: readonly Operation[],
  ctx: OrderContext,
  deleteFirstKeys: ReadonlySet<string>,
  sets: DependencySets,
): string[] {
  // Indexing every live object's references is the costly part, and only a delete reads it.
  if (!ops.some((op) => op.action === 'delete')) return [];
  const referrersOf = referrersByTarget(ctx.live);
  const deleteOf = deleteRemoving(ops, ctx.live);
  const changeOf = new Map(ops.filter((op) => inPlace(op.action)).map((op) => [op.liveId, op.id]));
  const blocked: string[] = [];
  for (const op of ops) {
    if (op.action !== 'delete' || op.liveId === undefined) continue;
    const target = op.liveId;
    const deleteFirst = op.replaces !== undefined && deleteFirstKeys.has(op.replaces);
    if (op.replaces !== undefined && !deleteFirst) sets.need(op, `create ${op.replaces}`);
    for (const referrer of referrersOf.get(target) ?? []) {
      const isChild = referrer.parentId === target && descriptorOf(referrer.kind).parent !== undefined;
      const gone = deleteOf(referrer.id);
      const moved = changeOf.get(referrer.id);
      if (gone !== undefined) sets.need(op, gone);
      else if (moved !== undefined && !deleteFirst) sets.need(op, moved);
      else if (!isChild && moved === undefined) {
        blocked.push(
          `${op.key} (${target}) is still referenced by ${referrer.id}, which this plan does not change: its delete will fail until that reference is removed`,
        );
      }
    }
  }
  return blocked;
}

/**
 * A unique value is released before anyone claims it; an update split in two claims in its final
 * PATCH what its first PATCH released.
 */
function needReleasesBeforeClaims(
  ops: readonly Operation[],
  ctx: OrderContext,
  split: ReadonlySet<string>,
  sets: DependencySets,
): void {
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
    if (split.has(op.id)) sets.need(op, `release ${op.key}`);
    for (const key of sidesOf(op)?.claims ?? []) for (const r of releasers.get(key) ?? []) sets.need(op, r);
  }
}
