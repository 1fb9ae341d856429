/**
 * Dependencies between operations, from the descriptors' references, and a deterministic order
 * that honours them: what is referenced is created before its referrers, referrers are updated off
 * an object or deleted before that object is deleted, and a replace runs create-new, repoint,
 * delete-old (or delete-old first when the two would collide on their natural key).
 */
import {
  descriptorOf,
  isObjectKey,
  mapReferences,
  writableValues,
  type DesiredObject,
  type Fields,
} from '../resources/index.js';
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
}

export interface Ordered {
  readonly operations: Operation[];
  /** Deletes that will fail because an object outside this plan still references the target. */
  readonly blocked: string[];
}

const actionRank = { adopt: 0, create: 1, update: 2, delete: 3 } as const;

/** Fills `dependsOn` and sorts `ops` topologically, ties broken by action then id. */
export function orderOperations(ops: readonly Operation[], ctx: OrderContext): Ordered {
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
    if (op.action === 'delete') continue;
    const o = ctx.desired.get(op.key);
    if (o === undefined) continue;
    const refs = referencesIn(descriptorOf(o.kind).fields, o.fields);
    if (o.parentKey !== undefined) refs.push(o.parentKey);
    for (const ref of refs) if (isObjectKey(ref)) need(op, `create ${ref}`);
    if (op.action === 'create' && op.replaces !== undefined && ctx.deleteFirst.has(op.key)) {
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
    const deleteFirst = op.replaces !== undefined && ctx.deleteFirst.has(op.replaces);
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

  return { operations: topologicalOrder(ops, deps), blocked };
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
