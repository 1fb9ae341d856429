/**
 * What leaves the scope: the deletes of marked objects no desired object claims, and what the
 * service deletes on its own (children go with their parent, rules with a policy, routes with an
 * edge, so their own deletes are dropped and each parent's delete carries its cascade instead).
 *
 * An observed entry's object is not this scope's: when it still carries this scope's marker (it was
 * managed before), the plan takes the marker off, as `forget` does, and writes nothing else. Its
 * marked children that the entry does not list go the same way instead of being deleted. So removing
 * the entry later, or its whole file, deletes nothing: no marker says the object is ours.
 */
import { descriptorOf } from '../../resources/index.js';
import { withCascades } from '../cascade.js';
import type { LiveObject } from '../../live/index.js';
import type { Orphan, Paired } from '../match.js';
import { pathParent } from '../parents.js';
import { deleteRequest, objectParts, releaseRequest } from '../requests.js';
import type { Operation } from '../../plan-format/index.js';
import { compare } from '../../compare.js';

export function orphanDeletes(orphans: readonly Orphan[]): Operation[] {
  return orphans.map(({ live: l, key, reason, reasonCode }) => {
    const d = descriptorOf(l.kind);
    return {
      id: `delete ${key}#${l.id}`,
      action: 'delete',
      kind: l.kind,
      key,
      liveId: l.id,
      ...pathParent(d, l),
      changes: [],
      dependsOn: [],
      reason,
      reason_code: reasonCode,
      // A managed object left the config; a duplicate or an item added by hand came from outside.
      cause: reasonCode === 'delete_because_removed_from_config' ? 'config' : 'drift',
      requests: [deleteRequest(objectParts(d, l.id, pathParent(d, l).liveParentId))],
    };
  });
}

/** `ops` without the deletes of children whose parent is deleted, each delete with its cascade. */
export function foldCascades(ops: readonly Operation[], liveObjects: readonly LiveObject[]): Operation[] {
  const deleted = new Set(ops.filter((op) => op.action === 'delete').map((op) => op.liveId));
  // Without a delete there is nothing to fold or attach: no index of every live object.
  if (deleted.size === 0) return [...ops];
  const liveById = new Map(liveObjects.map((l) => [l.id, l]));
  const cascaded = (op: Operation): boolean => {
    const l = op.liveId === undefined ? undefined : liveById.get(op.liveId);
    return l?.parentId !== undefined && descriptorOf(l.kind).parent !== undefined && deleted.has(l.parentId);
  };
  return withCascades(
    ops.filter((op) => !(op.action === 'delete' && cascaded(op))),
    liveObjects,
  );
}

interface ObservedRelease {
  /** The PATCHes that take the marker off, by key. */
  readonly operations: readonly Operation[];
  /** The orphans left to delete: those not under an observed object. */
  readonly orphans: readonly Orphan[];
  /** Ids of the objects released: no longer counted as managed. */
  readonly released: ReadonlySet<string>;
}

function releaseOf(key: string, l: LiveObject, reason: string): Operation {
  const d = descriptorOf(l.kind);
  const changes = [{ path: ['metadata'], before: l.record.metadata, after: l.userMetadata }];
  return {
    id: `update ${key}`,
    action: 'update',
    kind: l.kind,
    key,
    liveId: l.id,
    ...pathParent(d, l),
    changes: [{ path: ['metadata'], sensitive: true }],
    dependsOn: [],
    reason,
    reason_code: 'update_because_observed',
    requests: [releaseRequest(d, objectParts(d, l.id, pathParent(d, l).liveParentId), changes)],
  };
}

export function observedRelease(
  observed: readonly Paired[],
  orphans: readonly Orphan[],
  scope: string,
): ObservedRelease {
  const ours = observed.filter((m) => m.live.marker?.scope === scope);
  const observedIds = new Set(observed.map((m) => m.live.id));
  const under = (o: Orphan) => o.live.parentId !== undefined && observedIds.has(o.live.parentId);
  const operations = [
    ...ours.map((m) =>
      releaseOf(m.desired.key, m.live, "observed: this scope's marker comes off; nothing else is written"),
    ),
    ...orphans
      .filter(under)
      .map((o) =>
        releaseOf(
          o.live.marker?.key ?? o.live.id,
          o.live,
          "under an observed object: this scope's marker comes off instead of a delete",
        ),
      ),
  ].sort((a, b) => compare(a.key, b.key));
  return {
    operations,
    orphans: orphans.filter((o) => !under(o)),
    released: new Set(operations.flatMap((op) => (op.liveId === undefined ? [] : [op.liveId]))),
  };
}
