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

  const blocked: string[] = [];
  for (const op of ops) {
    if (op.action !== 'delete' || op.liveId === undefined) continue;
    const target = op.liveId;
    const deleteFirst = op.replaces !== undefined && ctx.deleteFirst.has(op.replaces);
    if (op.replaces !== undefined && !deleteFirst) need(op, `create ${op.replaces}`);
    for (const referrer of ctx.live) {
      if (referrer.id === target) continue;
      const d = descriptorOf(referrer.kind);
      const isChild = referrer.parentId === target && d.parent !== undefined;
      const refs = isChild
        ? [target]
        : referencesIn(d.fields, writableValues(d.fields, { ...referrer.record }));
      if (!refs.includes(target)) continue;
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

  const rank = (op: Operation): [number, string] => [actionRank[op.action], op.id];
  const ordered: Operation[] = [];
  const done = new Set<string>();
  let pending = [...ops].sort((a, b) => {
    const [ra, ia] = rank(a);
    const [rb, ib] = rank(b);
    return ra - rb || compare(ia, ib);
  });
  while (pending.length > 0) {
    const next = pending.find((op) => [...(deps.get(op.id) ?? [])].every((d) => done.has(d)));
    if (next === undefined) {
      throw new Error(`dependency cycle among ${pending.map((op) => op.id).join(', ')}`);
    }
    done.add(next.id);
    ordered.push({ ...next, dependsOn: [...(deps.get(next.id) ?? [])].sort(compare) });
    pending = pending.filter((op) => op !== next);
  }
  return { operations: ordered, blocked };
}
