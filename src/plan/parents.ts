/** Where an object sits under its parent, on the desired side and on the live side. */
import type { DesiredObject, KindDescriptor } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';
import type { ResolveRef } from './normalize.js';

/** The id (or, while it does not exist yet, the key) of a desired object's parent. */
export function desiredParentId(
  d: KindDescriptor,
  o: DesiredObject,
  resolve: ResolveRef,
): string | undefined {
  const link = d.parent;
  const parentRef = link?.via === 'field' ? o.fields[link.field] : o.parentKey;
  return typeof parentRef === 'string' ? resolve(parentRef, { kinds: [], readShape: 'id' }) : undefined;
}

/** `liveParentId` for objects addressed under their parent's path. */
export function pathParent(d: KindDescriptor, live: LiveObject): { liveParentId?: string } {
  return d.parent?.via === 'path' && live.parentId !== undefined ? { liveParentId: live.parentId } : {};
}
