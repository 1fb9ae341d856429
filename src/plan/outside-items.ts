/**
 * Items of a managed object's nested collections that its entry does not have (a rule added to a
 * managed IP policy in the dashboard): part of the object, so drift, deleted like any other, unless
 * the entry's `ignore:` names the collection. Only unmarked items: another scope's are not ours to
 * judge, and an item the config has under the same name is a look-alike, not an extra.
 */
import { naturalName, nestedCollections, type DesiredObject, type KindRegistry } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';

/** An unmarked nested item of a managed object, under the key an entry for it would have. */
interface OutsideItem {
  readonly live: LiveObject;
  readonly key: string;
}

export function itemsAddedOutside(
  kinds: KindRegistry,
  unclaimed: readonly LiveObject[],
  parents: ReadonlyMap<string, DesiredObject>,
  desiredKeys: ReadonlySet<string>,
): OutsideItem[] {
  return unclaimed.flatMap((l) => {
    const link = kinds.descriptorOf(l.kind).parent;
    const parent = l.parentId === undefined ? undefined : parents.get(l.parentId);
    if (link === undefined || parent === undefined || parent.kind !== link.kind || parent.observe === true)
      return [];
    const collection = nestedCollections(parent.kind, kinds).find((c) => c.child.kind === l.kind);
    if (collection === undefined) return [];
    const ignored = parent.ignore?.some((p) => p.length === 1 && p[0] === collection.member) === true;
    const key = `${parent.key}/${collection.member}/${naturalName(collection.child, l.record, -1)}`;
    return ignored || desiredKeys.has(key) ? [] : [{ live: l, key }];
  });
}
