/**
 * The kinds every stage reads. A registry is a value, frozen when built: `builtinKinds` holds this
 * build's kinds, and `with` makes a new registry with more beside them (a test's throwaway kind).
 * The planner, applier, live reader, renderers, emulator, policy rules and the daemon read the
 * registry they are given; the commands give `builtinKinds`. The module-level lookups
 * (`descriptorOf`, `descriptorOfId`...) read the built-in kinds, for code that is about them alone:
 * the loader, whose YAML layout holds the kinds in the build.
 */
import { descriptors } from './builtin-kinds.js';
import { ownFields } from './own-fields.js';
import type { FieldType, KindDescriptor, KindName, ModuleDescriptor, RegisteredKindName } from './types.js';

/** A kind that is not built in, described in full, for `KindRegistry.with`. */
type KindDescriptorToRegister = Omit<KindDescriptor, 'kind'> & { readonly kind: string };

export interface KindRegistry {
  /** Every kind, the built-in ones first, each in the order it was given. */
  readonly all: readonly KindDescriptor[];
  /** Kinds users write in the desired-state YAML, in the order the config documents them. */
  readonly managed: readonly KindDescriptor[];
  has(name: string): name is KindName;
  /** @throws {Error} for a kind this registry does not hold: a caller's bug, never the user's */
  descriptorOf(kind: KindName): KindDescriptor;
  /** The kind an id belongs to, from its prefix (`ipp_...` → IP policies); undefined for foreign ids. */
  descriptorOfId(id: string): KindDescriptor | undefined;
  /**
   * A new registry holding these kinds beside this one's. Refuses a name or id prefix already
   * taken: lookups by either must stay unambiguous.
   */
  with(...kinds: readonly KindDescriptorToRegister[]): KindRegistry;
}

function registryOf(all: readonly KindDescriptor[]): KindRegistry {
  const byName = new Map<KindName, KindDescriptor>();
  const byPrefix = new Map<string, KindDescriptor>();
  for (const d of all) {
    if (byName.has(d.kind)) throw new Error(`kind ${d.kind} is already registered`);
    byName.set(d.kind, d);
    if (d.idPrefix === undefined) continue;
    if (byPrefix.has(d.idPrefix)) throw new Error(`id prefix ${d.idPrefix} is already taken`);
    byPrefix.set(d.idPrefix, d);
  }
  const registry: KindRegistry = {
    all: Object.freeze([...all]),
    managed: Object.freeze(all.filter((d) => d.config !== undefined)),
    has: (name): name is KindName => byName.has(name as KindName),
    descriptorOf(kind) {
      const d = byName.get(kind);
      if (d === undefined) throw new Error(`kind ${kind} is not registered`);
      return d;
    },
    descriptorOfId(id) {
      const underscore = id.indexOf('_');
      return underscore <= 0 ? undefined : byPrefix.get(id.slice(0, underscore + 1));
    },
    with: (...kinds) =>
      registryOf([
        ...all,
        ...kinds.map((d) => ({ ...d, kind: d.kind as RegisteredKindName, fields: ownFields(d.fields) })),
      ]),
  };
  return Object.freeze(registry);
}

/** The kinds this build describes (`descriptors`), in their declared order. */
export const builtinKinds: KindRegistry = registryOf(Object.values(descriptors));

/** Kinds users write in the desired-state YAML, in the order the config documents them. */
export function managedDescriptors(): readonly KindDescriptor[] {
  return builtinKinds.managed;
}

export function descriptorOf(kind: KindName): KindDescriptor {
  return builtinKinds.descriptorOf(kind);
}

export function isKindName(value: string): value is KindName {
  return builtinKinds.has(value);
}

/** The kind an id belongs to, from its prefix (`ipp_...` → IP policies); undefined for foreign ids. */
export function descriptorOfId(id: string): KindDescriptor | undefined {
  return builtinKinds.descriptorOfId(id);
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
