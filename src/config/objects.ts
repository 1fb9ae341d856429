/**
 * Turns one parsed file into the objects it declares: one per map entry, one per nested rule or
 * route, each with its fields under response names (sources resolved, references still as written)
 * and a way back from a field path to its place in the document.
 */
import { parseCidr } from '../resources/formats/index.js';
import type { FieldPath, Fields, KindDescriptor } from '../resources/index.js';
import type { DocPath, Finding } from './diagnostic.js';
import { configLayout, pinMember, type ChildLayout, type MapLayout } from './layout.js';
import type { SourceFile } from './source.js';
import { resolveSources } from './sources.js';

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
  readonly sensitive: FieldPath[];
  readonly source: SourceFile;
  /** Where the entry (map value or list item) sits in its document. */
  readonly entryPath: DocPath;
  /** Where a field of the object sits in its document. */
  readonly docPath: (path: FieldPath) => DocPath;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `id:` member of an entry or item, and its other members. */
function splitPin(entry: Record<string, unknown>): { pin?: string; rest: Record<string, unknown> } {
  const { [pinMember]: pin, ...rest } = entry;
  return typeof pin === 'string' ? { pin, rest } : { rest };
}

/** Every object `source` declares; problems resolving `{env}`/`{file}` go to `findings`. */
export function declaredObjects(
  source: SourceFile,
  env: NodeJS.ProcessEnv,
  findings: Finding[],
): DeclaredObject[] {
  const root = source.value;
  if (!isPlainObject(root)) return [];
  const out: DeclaredObject[] = [];
  for (const map of configLayout) {
    const entries = root[map.key];
    if (!isPlainObject(entries)) continue;
    for (const [name, entry] of Object.entries(entries)) {
      if (!isPlainObject(entry)) continue;
      const parent = declareEntry(map, name, entry, source, env, findings);
      if (!parent) continue;
      out.push(parent);
      for (const child of map.children) {
        const items = entry[child.member];
        if (!Array.isArray(items)) continue;
        items.forEach((item, i) => {
          if (isPlainObject(item)) {
            out.push(declareChild(child, parent, i, item, source, env, findings));
          }
        });
      }
    }
  }
  return out;
}

function declareEntry(
  map: MapLayout,
  name: string,
  pinned: Record<string, unknown>,
  source: SourceFile,
  env: NodeJS.ProcessEnv,
  findings: Finding[],
): DeclaredObject | undefined {
  const entryPath: DocPath = [map.key, name];
  const { pin, rest: entry } = splitPin(pinned);
  const childMembers = new Set(map.children.map((c) => c.member));
  let descriptor: KindDescriptor;
  let written: Record<string, unknown>;
  let docPath: (path: FieldPath) => DocPath;
  if (map.variants) {
    const { members, shared } = map.variants;
    // Which variant: the schema pass reports an entry with none or several.
    const variant = members.find(({ member }) => isPlainObject(entry[member]));
    if (!variant) return undefined;
    descriptor = variant.descriptor;
    const variantValues = entry[variant.member] as Record<string, unknown>;
    written = {
      ...Object.fromEntries(Object.entries(entry).filter(([k]) => k in shared)),
      ...variantValues,
    };
    docPath = (path) =>
      path.length > 0 && String(path[0]) in shared
        ? [...entryPath, ...path]
        : [...entryPath, variant.member, ...path];
  } else {
    descriptor = map.kinds[0]!;
    written = Object.fromEntries(Object.entries(entry).filter(([k]) => !childMembers.has(k)));
    docPath = (path) => [...entryPath, ...path];
  }
  const sensitive: FieldPath[] = [];
  const values = resolveSources(descriptor.fields, written, {
    env,
    yamlFile: source.absolute,
    docPath,
    findings,
    sensitive,
  });
  return {
    descriptor,
    fields: descriptor.fields,
    key: `${map.key}/${name}`,
    name,
    ...(pin === undefined ? {} : { pin }),
    values,
    sensitive,
    source,
    entryPath,
    docPath,
  };
}

function declareChild(
  child: ChildLayout,
  parent: DeclaredObject,
  index: number,
  pinned: Record<string, unknown>,
  source: SourceFile,
  env: NodeJS.ProcessEnv,
  findings: Finding[],
): DeclaredObject {
  const entryPath: DocPath = [...parent.entryPath, child.member, index];
  const { pin, rest: item } = splitPin(pinned);
  const docPath = (path: FieldPath): DocPath =>
    path[0] === child.parentField ? entryPath : [...entryPath, ...path];
  const sensitive: FieldPath[] = [];
  const resolved = resolveSources(child.fields, item, {
    env,
    yamlFile: source.absolute,
    docPath,
    findings,
    sensitive,
  });
  const values =
    child.parentField === undefined ? resolved : { ...resolved, [child.parentField]: parent.name };
  const name = childName(child.descriptor, values, index);
  return {
    descriptor: child.descriptor,
    fields: child.descriptor.fields,
    key: `${parent.key}/${child.member}/${name}`,
    name,
    parentKey: parent.key,
    ...(pin === undefined ? {} : { pin }),
    values,
    sensitive,
    source,
    entryPath,
    docPath,
  };
}

/**
 * A nested object's name is its natural key within the parent: a rule's canonical CIDR, a route's
 * `<match_type>:<match>`. Unparseable values fall back to the value as written, or the list index.
 */
function childName(d: KindDescriptor, values: Record<string, unknown>, index: number): string {
  const parts = (d.naturalKey?.fields ?? []).map((name) => {
    const value = values[name];
    if (typeof value !== 'string') return undefined;
    const f = d.fields[name];
    if (f?.type.type === 'string' && f.type.format === 'cidr') {
      const cidr = parseCidr(value);
      return cidr.ok ? cidr.value.canonical : value;
    }
    return value;
  });
  return parts.length > 0 && parts.every((p) => p !== undefined) ? parts.join(':') : `#${index}`;
}
