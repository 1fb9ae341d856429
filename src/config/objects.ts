/**
 * Turns one parsed file into the objects it declares: one per map entry, one per nested rule or
 * route, each with its fields under response names (sources resolved, references still as written)
 * and a way back from a field path to the file and place that wrote it. An entry an environment's
 * overlay patched takes the patched value, and its patched parts point at the overlay.
 */
import { naturalName, type FieldPath, type Fields, type KindDescriptor } from '../resources/index.js';
import type { DocPath } from './diagnostic.js';
import { configLayout, entryMembers, pinMember, type ChildLayout, type MapLayout } from './layout.js';
import { isPlainObject } from '../plain-object.js';
import { PatchedEntry, type PatchConflict, type EntryPatch } from './overlay.js';
import type { FileFinding, Place, SourceFile } from './source.js';
import type { ExternalContext } from './external-value.js';
import { pathKey, resolveSources, type SourceContext, type Values } from './sources.js';
import type { Withheld } from './withheld.js';

/** An object as declared, before references are resolved. */
export interface DeclaredObject {
  readonly descriptor: KindDescriptor;
  /** The fields `validateBody` checks the object against. */
  readonly fields: Fields;
  readonly key: string;
  readonly name: string;
  readonly parentKey?: string;
  /** The entry's `id:` member (the schema checked it). */
  readonly pin?: string;
  readonly values: Record<string, unknown>;
  /** `protect` as written (the schema pass checked its type). */
  readonly protect?: boolean;
  /** `ignore` as written, dotted paths (the rule pass checks them against the kind). */
  readonly ignore?: readonly string[];
  /** `observe: true` on the entry (its nested items inherit it). */
  readonly observe?: true;
  readonly sensitive: readonly FieldPath[];
  /** Values read from the environment or a file, by field path (`pathKey`): messages never repeat them. */
  readonly withheld: ReadonlyMap<string, Withheld>;
  /** The file that declares the entry (the base file, for an entry an overlay patched). */
  readonly source: SourceFile;
  /** Where the entry (map value or list item) sits in that file's document. */
  readonly entryPath: DocPath;
  /** Where a field of the object was written: its file and document path. */
  readonly place: (path: FieldPath) => Place;
}

/** What declaring objects needs besides the file. */
export interface DeclareContext extends ExternalContext {
  /** `{var: name}` values of the environment. */
  readonly values: Values;
  /** Patches of the selected environment's overlays, by entry key (`ip_policies/office`). */
  readonly patches: ReadonlyMap<string, readonly EntryPatch[]>;
  /** Entry keys an overlay dropped. */
  readonly drops: ReadonlySet<string>;
  readonly findings: FileFinding[];
  /** Called when two files of one environment patch the same value. */
  readonly onConflict: (conflict: PatchConflict) => void;
}

/** Every object `source` declares; problems resolving `{env}`/`{file}`/`{var}` go to `ctx.findings`. */
export function declaredObjects(source: SourceFile, ctx: DeclareContext): DeclaredObject[] {
  const root = source.value;
  if (!isPlainObject(root)) return [];
  const out: DeclaredObject[] = [];
  for (const map of configLayout) {
    const entries = root[map.key];
    if (!isPlainObject(entries)) continue;
    for (const [name, written] of Object.entries(entries)) {
      if (!isPlainObject(written)) continue;
      const key = `${map.key}/${name}`;
      if (ctx.drops.has(key)) continue;
      const entry = new PatchedEntry({ source, path: [map.key, name] }, written);
      for (const patch of ctx.patches.get(key) ?? noPatches) entry.apply(patch).forEach(ctx.onConflict);
      const parent = declareEntry(map, name, entry, source, ctx);
      if (!parent) continue;
      out.push(parent);
      for (const child of map.children) {
        const items = entry.value[child.member];
        if (!Array.isArray(items)) continue;
        items.forEach((item, i) => {
          if (isPlainObject(item)) out.push(declareChild(child, parent, entry, i, item, ctx));
        });
      }
    }
  }
  return out;
}

const noPatches: readonly EntryPatch[] = [];

/** The members acctsync reads itself, read where they are written (the fields leave them out). */
function lifecycleOf(entry: Record<string, unknown>): Lifecycle {
  const lifecycle: Lifecycle = {};
  const pin = entry[pinMember];
  if (typeof pin === 'string') lifecycle.pin = pin;
  if (typeof entry.protect === 'boolean') lifecycle.protect = entry.protect;
  if (Array.isArray(entry.ignore)) {
    const ignore = entry.ignore.filter((p): p is string => typeof p === 'string');
    if (ignore.length > 0) lifecycle.ignore = ignore;
  }
  if (entry.observe === true) lifecycle.observe = true;
  return lifecycle;
}

interface Lifecycle {
  pin?: string;
  protect?: boolean;
  ignore?: readonly string[];
  observe?: true;
}

/** An object's members besides its lifecycle, which {@link withLifecycle} adds where it is set. */
type Declared = Omit<DeclaredObject, keyof Lifecycle>;

/** `object` with each lifecycle member that is set: a member left unset stays absent, not undefined. */
function withLifecycle(object: Declared, lifecycle: Lifecycle): DeclaredObject {
  const out: { -readonly [K in keyof DeclaredObject]: DeclaredObject[K] } = object;
  if (lifecycle.pin !== undefined) out.pin = lifecycle.pin;
  if (lifecycle.protect !== undefined) out.protect = lifecycle.protect;
  if (lifecycle.ignore !== undefined) out.ignore = lifecycle.ignore;
  if (lifecycle.observe !== undefined) out.observe = lifecycle.observe;
  return out;
}

/** Whether a member of an entry or item is one acctsync reads itself rather than a field. */
function isEntryMember(member: string): boolean {
  return member in entryMembers;
}

/** The members of a map's entries holding its children's lists, once per map. */
const childMembersOf = new WeakMap<MapLayout, ReadonlySet<string>>();

function childMembers(map: MapLayout): ReadonlySet<string> {
  let members = childMembersOf.get(map);
  if (members === undefined) {
    members = new Set(map.children.map((c) => c.member));
    childMembersOf.set(map, members);
  }
  return members;
}

function declareEntry(
  map: MapLayout,
  name: string,
  patched: PatchedEntry,
  source: SourceFile,
  ctx: DeclareContext,
): DeclaredObject | undefined {
  const entry = patched.value;
  const lifecycle = lifecycleOf(entry);
  let descriptor: KindDescriptor;
  let written: Record<string, unknown>;
  let omit: (member: string) => boolean = isEntryMember;
  let relative: (path: FieldPath) => DocPath;
  if (map.variants) {
    const { members, shared } = map.variants;
    // Which variant: the schema pass reports an entry with none or several.
    const variant = members.find(({ member }) => isPlainObject(entry[member]));
    if (!variant) return undefined;
    descriptor = variant.descriptor;
    const variantValues = entry[variant.member] as Record<string, unknown>;
    written = {
      ...Object.fromEntries(Object.entries(entry).filter(([k]) => k in shared && !isEntryMember(k))),
      ...variantValues,
    };
    omit = () => false;
    relative = (path) => (path.length > 0 && String(path[0]) in shared ? path : [variant.member, ...path]);
    // `ignore: [tunnel_group.labels]` names the variant's field as the YAML nests it.
    if (lifecycle.ignore !== undefined) {
      const prefix = `${variant.member}.`;
      lifecycle.ignore = lifecycle.ignore.map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p));
    }
  } else {
    descriptor = map.kinds[0]!;
    written = entry;
    const children = childMembers(map);
    if (children.size > 0) omit = (k) => isEntryMember(k) || children.has(k);
    relative = (path) => path;
  }
  const writtenAt = (path: FieldPath): Place => patched.placeOf(relative(path));
  const { values, sensitive, withheld, place } = resolveWritten(
    descriptor.fields,
    written,
    writtenAt,
    ctx,
    omit,
  );
  const declared: Declared = {
    descriptor,
    fields: descriptor.fields,
    key: `${map.key}/${name}`,
    name,
    values,
    sensitive,
    withheld,
    source,
    entryPath: [map.key, name],
    place,
  };
  return withLifecycle(declared, lifecycle);
}

function declareChild(
  child: ChildLayout,
  parent: DeclaredObject,
  patched: PatchedEntry,
  index: number,
  item: Record<string, unknown>,
  ctx: DeclareContext,
): DeclaredObject {
  const lifecycle = lifecycleOf(item);
  // The schema admits `observe` on entries only: a nested item is observed with its parent.
  if (parent.observe === true) lifecycle.observe = true;
  const written = (path: FieldPath): Place =>
    patched.placeOf(path[0] === child.parentField ? [child.member, index] : [child.member, index, ...path]);
  const { values, sensitive, withheld, place } = resolveWritten(
    child.fields,
    item,
    written,
    ctx,
    isEntryMember,
  );
  // The resolved values are a new object of this item's own: the parent's name joins them in place.
  if (child.parentField !== undefined) values[child.parentField] = parent.name;
  // A name is printed in plans and keys: one taken from a withheld value would publish it.
  const named =
    withheld.size === 0
      ? values
      : Object.fromEntries(Object.entries(values).filter(([k]) => !withheld.has(pathKey([k]))));
  const name = naturalName(child.descriptor, named, index);
  const at = place([]);
  const declared: Declared = {
    descriptor: child.descriptor,
    fields: child.descriptor.fields,
    key: `${parent.key}/${child.member}/${name}`,
    name,
    parentKey: parent.key,
    values,
    sensitive,
    withheld,
    source: at.source,
    entryPath: at.path,
    place,
  };
  return withLifecycle(declared, lifecycle);
}

/** An object's values with their `{env}`/`{file}`/`{var}` sources resolved, and where each was written. */
function resolveWritten(
  fields: Fields,
  written: Record<string, unknown>,
  writtenAt: (path: FieldPath) => Place,
  ctx: DeclareContext,
  omit: (member: string) => boolean,
): {
  values: Record<string, unknown>;
  sensitive: readonly FieldPath[];
  withheld: ReadonlyMap<string, Withheld>;
  place: (path: FieldPath) => Place;
} {
  // The context named member by member: V8 copies a spread of it slowly (about 10 us an object).
  const sourceContext: SourceContext = {
    env: ctx.env,
    filesRoot: ctx.filesRoot,
    values: ctx.values,
    findings: ctx.findings,
    place: writtenAt,
  };
  const values = resolveSources(fields, written, sourceContext, omit);
  const { sensitive = noneSensitive, withheld = noneWithheld, valuePlaces } = sourceContext;
  return { values, sensitive, withheld, place: placeWithValues(valuePlaces, writtenAt) };
}

/** The sensitive paths and withheld values of the many objects that have none. */
const noneSensitive: readonly FieldPath[] = Object.freeze([]);
const noneWithheld: ReadonlyMap<string, Withheld> = new Map();

/** Where a field was written, or, for a value a `{var}` took, where that value is defined. */
function placeWithValues(
  valuePlaces: ReadonlyMap<string, Place> | undefined,
  written: (path: FieldPath) => Place,
): (path: FieldPath) => Place {
  // Most objects take no `{var}` value: their places are where they are written.
  if (valuePlaces === undefined) return written;
  return (path: FieldPath): Place => {
    for (let n = path.length; n > 0 && valuePlaces.size > 0; n--) {
      const defined = valuePlaces.get(pathKey(path.slice(0, n)));
      if (defined !== undefined) return defined;
    }
    return written(path);
  };
}
