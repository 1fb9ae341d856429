/**
 * Where an object lives in the API: its collection's path, with the parent's id in place of the
 * `{...}` segment for kinds addressed under their parent (routes), and its own path below that.
 * The planner writes request paths with it (a parent not created yet as a reference the applier
 * fills in), the applier and `forget` address objects with it.
 */
import type { KindDescriptor } from './types.js';

/**
 * The collection path as parts: literal text and, for a nested kind, `parent` where the path
 * names it (`['/edges/https/', parent, '/routes']`).
 * @throws {Error} when the kind is nested and no parent is given: a bug of the caller
 */
export function collectionParts<P>(d: KindDescriptor, parent: P | undefined): (string | P)[] {
  const hole = /\{[^}]+\}/.exec(d.path);
  if (hole === null) return [d.path];
  if (parent === undefined) throw new Error(`${d.title}: no parent id to build ${d.path}`);
  const after = d.path.slice(hole.index + hole[0].length);
  return [d.path.slice(0, hole.index), parent, ...(after === '' ? [] : [after])];
}

/** The collection path with the parent's id filled in (`/edges/https/edghts_1/routes`). */
export function collectionPath(d: KindDescriptor, parentId: string | undefined): string {
  return collectionParts(d, parentId === undefined ? undefined : encodeURIComponent(parentId)).join('');
}

export function objectPath(d: KindDescriptor, id: string, parentId: string | undefined): string {
  return `${collectionPath(d, parentId)}/${encodeURIComponent(id)}`;
}
