/**
 * What goes with a deleted object: the service deletes children with their parent (an IP policy's
 * rules, an HTTPS edge's routes, a subscription's sources) and an object's modules with it. Derived
 * from the descriptors' parent links and module fields, never per kind, so that guards and
 * summaries count every object a delete removes and renderers can say "with 8 routes".
 */
import {
  descriptorOf,
  managedDescriptors,
  moduleFields,
  type KindDescriptor,
  type KindName,
} from '../resources/index.js';
import { compare } from '../compare.js';
import type { LiveObject } from '../live/index.js';
import type { Cascade, CascadedObject, Operation } from '../plan-format/index.js';

/** Module members set on a live record (an edge's `mutual_tls`, a route's `oidc`). */
function modulesOf(l: LiveObject): string[] {
  return moduleFields(descriptorOf(l.kind))
    .filter(([name]) => l.record[name] != null)
    .map(([name]) => name);
}

/** Per registry (its list of managed kinds), the kinds deleted with a parent of each kind. */
const childKindsByRegistry = new WeakMap<readonly KindDescriptor[], Map<KindName, KindName[]>>();

/** Kinds whose objects the service deletes with a parent of `kind`. */
function childKinds(kind: KindName): KindName[] {
  const managed = managedDescriptors();
  let byParent = childKindsByRegistry.get(managed);
  if (byParent === undefined) childKindsByRegistry.set(managed, (byParent = new Map<KindName, KindName[]>()));
  let kinds = byParent.get(kind);
  if (kinds === undefined) {
    kinds = managed.filter((d) => d.parent?.kind === kind).map((d) => d.kind);
    byParent.set(kind, kinds);
  }
  return kinds;
}

/** Live objects by parent id, for walking down from a deleted object. */
type ChildIndex = ReadonlyMap<string, readonly LiveObject[]>;

export function indexChildren(objects: readonly LiveObject[]): ChildIndex {
  const index = new Map<string, LiveObject[]>();
  for (const l of objects) {
    if (l.parentId === undefined || descriptorOf(l.kind).parent === undefined) continue;
    const list = index.get(l.parentId);
    if (list === undefined) index.set(l.parentId, [l]);
    else list.push(l);
  }
  return index;
}

/**
 * Every descendant of `parent` the service removes with it, depth first, children by their key
 * (then id): the same children in the same order whatever order the account created them in.
 */
function descendants(parent: LiveObject, index: ChildIndex): LiveObject[] {
  const listed = index.get(parent.id);
  if (listed === undefined) return [];
  const kinds = childKinds(parent.kind);
  const children = listed
    .filter((c) => kinds.includes(c.kind))
    .sort((a, b) => compare(a.marker?.key ?? '', b.marker?.key ?? '') || compare(a.id, b.id));
  return children.flatMap((c) => [c, ...descendants(c, index)]);
}

/** What deleting `l` removes besides `l` itself. */
export function cascadeOf(l: LiveObject, index: ChildIndex): Cascade {
  const objects: CascadedObject[] = descendants(l, index).map((c) => ({
    kind: c.kind,
    id: c.id,
    ...(c.marker === undefined ? {} : { key: c.marker.key }),
    ...(c.parentId === undefined ? {} : { parentId: c.parentId }),
    modules: modulesOf(c),
  }));
  return { objects, modules: modulesOf(l) };
}

/**
 * Objects a scope manages, counted as removals are: those carrying its marker, and the children
 * that would go with them (a rule added by hand to a managed policy is deleted with it).
 */
export function managedCount(objects: readonly LiveObject[], scope: string): number {
  const index = indexChildren(objects);
  const counted = new Set<string>();
  for (const l of objects) {
    if (l.marker?.scope !== scope) continue;
    counted.add(l.id);
    for (const c of descendants(l, index)) counted.add(c.id);
  }
  return counted.size;
}

/** `ops` with each delete's cascade attached, where it has one. */
export function withCascades(ops: readonly Operation[], objects: readonly LiveObject[]): Operation[] {
  const index = indexChildren(objects);
  const byId = new Map(objects.map((l) => [l.id, l]));
  return ops.map((op) => {
    if (op.action !== 'delete' || op.liveId === undefined) return op;
    const live = byId.get(op.liveId);
    if (live === undefined) return op;
    const cascade = cascadeOf(live, index);
    return cascade.objects.length === 0 && cascade.modules.length === 0 ? op : { ...op, cascade };
  });
}
