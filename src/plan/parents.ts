/** Where an object sits under its parent, on the desired side and on the live side. */
import type { DesiredObject, KindDescriptor } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';
import type { ResolveRef } from './normalize.js';

/**
 * The id of a desired object's parent, by the link its descriptor names (a field, or the entry it
 * is nested under), as `resolve` turns the parent's key into an id: the one way every step works
 * it out, each with the resolution it knows at that point (matched so far, or created first).
 */
export function desiredParentId(
  d: KindDescriptor,
  o: DesiredObject,
  resolve: (ref: string) => string | undefined,
): string | undefined {
  const link = d.parent;
  if (link === undefined) return undefined;
  const parentRef = link.via === 'field' ? o.fields[link.field] : o.parentKey;
  return typeof parentRef === 'string' ? resolve(parentRef) : undefined;
}

/** A `desiredParentId` resolution by the plan's references: an id, or the key of one made first. */
export const byReference =
  (resolve: ResolveRef) =>
  (ref: string): string =>
    resolve(ref, { kinds: [], readShape: 'id' });

/** `liveParentId` for objects addressed under their parent's path. */
export function pathParent(d: KindDescriptor, live: LiveObject): { liveParentId?: string } {
  return d.parent?.via === 'path' && live.parentId !== undefined ? { liveParentId: live.parentId } : {};
}
