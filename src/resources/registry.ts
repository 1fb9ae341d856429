/** The registry every stage reads kinds from: lookups by name and by id, and `registerKind`. */
import { descriptors } from './builtin-kinds.js';
import { ownFields } from './own-fields.js';
import type { FieldType, KindDescriptor, KindName, ModuleDescriptor, RegisteredKindName } from './types.js';

/**
 * The kinds known now: the built-in table first, then those `registerKind` added, in registration
 * order. The lists below are kept current in place, so read them when used: a copy taken at module
 * load misses a kind registered later.
 */
const registered = new Map<KindName, KindDescriptor>(
  Object.entries(descriptors) as [KindName, KindDescriptor][],
);
const all: KindDescriptor[] = [...registered.values()];
const managed: KindDescriptor[] = all.filter((d) => d.config !== undefined);
const byPrefix = new Map(all.flatMap((d) => (d.idPrefix === undefined ? [] : [[d.idPrefix, d] as const])));

export const allDescriptors: readonly KindDescriptor[] = all;

/** Kinds users write in the desired-state YAML, in the order the config documents them. */
export const managedDescriptors: readonly KindDescriptor[] = managed;

/** A kind that is not built in, described in full, for `registerKind`. */
export type KindDescriptorToRegister = Omit<KindDescriptor, 'kind'> & { readonly kind: string };

/**
 * Adds a kind beside the built-in ones until `unregister` is called: every stage that reads the
 * registry when it runs (planner, applier, an emulator started afterwards) handles it like a
 * built-in kind. Refuses a name or id prefix already taken.
 */
export function registerKind(descriptor: KindDescriptorToRegister): {
  readonly descriptor: KindDescriptor;
  readonly unregister: () => void;
} {
  const kind = descriptor.kind as RegisteredKindName;
  if (registered.has(kind)) throw new Error(`kind ${kind} is already registered`);
  if (descriptor.idPrefix !== undefined && byPrefix.has(descriptor.idPrefix))
    throw new Error(`id prefix ${descriptor.idPrefix} is already taken`);
  const d: KindDescriptor = { ...descriptor, kind, fields: ownFields(descriptor.fields) };
  registered.set(kind, d);
  all.push(d);
  if (d.config !== undefined) managed.push(d);
  if (d.idPrefix !== undefined) byPrefix.set(d.idPrefix, d);
  return {
    descriptor: d,
    unregister: () => {
      if (registered.get(kind) !== d) return;
      registered.delete(kind);
      drop(all, d);
      drop(managed, d);
      if (d.idPrefix !== undefined) byPrefix.delete(d.idPrefix);
    },
  };
}

function drop(list: KindDescriptor[], d: KindDescriptor): void {
  const at = list.indexOf(d);
  if (at >= 0) list.splice(at, 1);
}

export function descriptorOf(kind: KindName): KindDescriptor {
  const d = registered.get(kind);
  if (d === undefined) throw new Error(`kind ${kind} is not registered`);
  return d;
}

export function isKindName(value: string): value is KindName {
  return registered.has(value as KindName);
}

/** The kind an id belongs to, from its prefix (`ipp_...` → IP policies); undefined for foreign ids. */
export function descriptorOfId(id: string): KindDescriptor | undefined {
  const underscore = id.indexOf('_');
  return underscore <= 0 ? undefined : byPrefix.get(id.slice(0, underscore + 1));
}

/** The module fields of a kind (edge and route modules), keyed by member name. */
export function moduleFields(d: KindDescriptor): Array<[string, ModuleDescriptor]> {
  return Object.entries(d.fields).flatMap(([name, f]) =>
    f.type.type === 'module' ? [[name, f.type.module]] : [],
  );
}

/** Kinds a reference field can point at, if the field (or its map keys) is a reference. */
function referenceTargets(type: FieldType): readonly KindName[] {
  if (type.type === 'ref') return type.target.kinds;
  if (type.type === 'map' && type.keyRef) return type.keyRef.kinds;
  return [];
}

/** Kinds this kind references anywhere in its writable fields, modules included: the dependency edges. */
export function referencedKinds(d: KindDescriptor): Set<KindName> {
  const out = new Set<KindName>();
  const walk = (type: FieldType): void => {
    for (const k of referenceTargets(type)) out.add(k);
    if (type.type === 'object') Object.values(type.fields).forEach((f) => walk(f.type));
    if (type.type === 'module') Object.values(type.module.fields).forEach((f) => walk(f.type));
    if (type.type === 'list') walk(type.items);
    if (type.type === 'map') walk(type.values);
  };
  for (const f of Object.values(d.fields)) if (f.write !== 'read-only') walk(f.type);
  return out;
}

/** Whether a live record is the service's own object (see `serviceOwnedWhenSet`). */
export function isServiceOwned(d: KindDescriptor, record: Readonly<Record<string, unknown>>): boolean {
  const member = d.serviceOwnedWhenSet;
  return member !== undefined && record[member] !== null && record[member] !== undefined;
}
