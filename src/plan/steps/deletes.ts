/**
 * The deletes of marked objects no desired object claims, and what the service deletes on its own:
 * children go with their parent (rules with a policy, routes with an edge), so their own deletes
 * are dropped and each parent's delete carries its cascade instead.
 */
import { descriptorOf } from '../../resources/index.js';
import { withCascades } from '../cascade.js';
import type { LiveObject } from '../../live/index.js';
import type { Orphan } from '../match.js';
import { pathParent } from '../parents.js';
import { deleteRequest, objectParts } from '../requests.js';
import type { Operation } from '../../plan-format/index.js';

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
