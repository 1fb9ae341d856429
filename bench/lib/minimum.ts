/**
 * The fewest list requests a plan can make: every collection it fetches walked at the largest page
 * size (100), so `ceil(count / 100)` pages, and one request for an empty collection (the API has
 * no cheaper way to learn that it is empty). Kinds embedded in their parent's records (HTTPS edge
 * routes) cost nothing of their own.
 */
import { descriptorOf, type KindDescriptor, type KindName } from '../../src/resources/index.js';

export const maxPageSize = 100;

/** The collection whose list request returns objects of `kind`. */
export function collectionOf(kind: KindName): KindDescriptor {
  const d = descriptorOf(kind);
  return d.listMember === undefined && d.parent?.embeddedAs !== undefined ? descriptorOf(d.parent.kind) : d;
}

/** Pages needed to list `count` objects. */
export function pagesFor(count: number): number {
  return Math.max(1, Math.ceil(count / maxPageSize));
}

/**
 * The minimum number of list requests to fetch `kinds`, given how many objects each collection
 * holds (keyed by the collection's path; collections shared by several kinds are listed once).
 */
export function minimumListRequests(
  kinds: readonly KindName[],
  countByCollection: ReadonlyMap<string, number>,
): number {
  const collections = new Set(kinds.map((k) => collectionOf(k).path));
  let total = 0;
  for (const path of collections) total += pagesFor(countByCollection.get(path) ?? 0);
  return total;
}

/**
 * Objects per collection, from the objects a plan fetched: embedded children are not counted
 * (they come inside their parent's page).
 */
export function countByCollection(objects: ReadonlyArray<{ kind: KindName }>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const o of objects) {
    const d = descriptorOf(o.kind);
    if (collectionOf(o.kind) !== d) continue;
    counts.set(d.path, (counts.get(d.path) ?? 0) + 1);
  }
  return counts;
}
