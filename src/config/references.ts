/**
 * Cross-object checks once every file is read: names defined twice, nested objects repeating their
 * natural key within a parent, references that resolve (with suggestions), and objects that reach
 * themselves through their references.
 */
import {
  anyOf,
  aTitle,
  derivedOnce,
  descriptorOf,
  descriptorOfId,
  fieldsMayReference,
  mapReferences,
  type FieldPath,
  type KindName,
  type RefTarget,
} from '../resources/index.js';
import { mapOfKind, type MapLayout } from './layout.js';
import type { DeclaredObject } from './objects.js';
import { locate, type FileFinding, type SourceFile } from './source.js';
import { didYouMean } from '../suggest.js';

function place(o: DeclaredObject, path = o.entryPath): string {
  const { line } = locate(o.source, path, true);
  return `${o.source.file}:${line}`;
}

/**
 * The objects with unique keys: a second declaration is reported naming the first, and dropped so
 * that one mistake does not cascade.
 */
export function uniqueObjects(objects: readonly DeclaredObject[], out: FileFinding[]): DeclaredObject[] {
  const byKey = new Map<string, DeclaredObject>();
  for (const o of objects) {
    const first = byKey.get(o.key);
    if (!first) {
      byKey.set(o.key, o);
      continue;
    }
    const what = `${titles([o.descriptor.kind], true)} ${o.name}`;
    const within = o.parentKey === undefined ? '' : ` in ${o.parentKey}`;
    out.push({
      ...(o.parentKey === undefined
        ? { source: o.source, path: o.entryPath }
        : o.place(o.descriptor.naturalKey?.fields.slice(0, 1) ?? [])),
      atKey: o.parentKey === undefined,
      message: `${what} is defined twice${within}: here and at ${place(first)}`,
      hint:
        o.parentKey === undefined
          ? 'logical names are unique within a kind across all files: rename or remove one'
          : 'remove one of the two, or merge them',
    });
  }
  return [...byKey.values()];
}

/** The noun of a map shared by several kinds (`backends` → "backend"), when all of `kinds` are its. */
function sharedNoun(kinds: readonly KindName[]): string | undefined {
  const map = mapOfKind(kinds[0]!);
  if (!map?.variants || !kinds.every((k) => mapOfKind(k) === map)) return undefined;
  return map.key.replace(/s$/, '');
}

/** "backend" for the kinds of a shared map, else the kinds' titles. */
function titles(kinds: readonly KindName[], sharedMapNoun = kinds.length > 1): string {
  return (
    (sharedMapNoun ? sharedNoun(kinds) : undefined) ?? kinds.map((k) => descriptorOf(k).title).join(' or ')
  );
}

/** "a backend" (any kind of a shared map, whose nouns all take "a"), else "an IP policy or a ...". */
function aKind(kinds: readonly KindName[]): string {
  const noun = kinds.length > 1 ? sharedNoun(kinds) : undefined;
  return noun === undefined ? anyOf(kinds) : `a ${noun}`;
}

/** A name that matched no object while some file could not be read: it may be defined there. */
export interface UncheckedReference {
  readonly source: SourceFile;
  readonly line: number;
  readonly name: string;
}

/**
 * Resolves the references of every object; returns the fields with references as keys or raw ids.
 * With `incomplete` (a file did not parse), a name matching no object is not an error, since it may
 * be defined in that file: it is listed in `unchecked` instead.
 */
export function resolveReferences(
  objects: readonly DeclaredObject[],
  out: FileFinding[],
  incomplete?: { readonly unchecked: UncheckedReference[] },
): { resolved: Map<DeclaredObject, Record<string, unknown>>; edges: ReferenceEdges } {
  const byKey = new Map(objects.map((o) => [o.key, o]));
  const resolved = new Map<DeclaredObject, Record<string, unknown>>();
  const edges = new Map<string, readonly ReferenceEdge[]>();

  for (const o of objects) {
    // Without a reference field the values are what the declaration made (a copy of its own).
    if (!fieldsMayReference(o.fields)) {
      resolved.set(o, o.values);
      continue;
    }
    const named: ReferenceEdge[] = [];
    const resolveOne = (target: RefTarget, value: string, path: FieldPath, atKey: boolean): string => {
      const map = targetMap(target);
      if (map !== undefined) named.push({ key: `${map.key}/${value}`, path, atKey });
      if (value === '') return value;
      const found = map ? byKey.get(`${map.key}/${value}`) : undefined;
      if (found && target.kinds.includes(found.descriptor.kind)) return found.key;
      const idKind = descriptorOfId(value)?.kind;
      if (idKind !== undefined && target.kinds.includes(idKind)) return value;
      const finding = (message: string, hint?: string): string => {
        out.push({ ...o.place(path), atKey, message, ...(hint ? { hint } : {}) });
        return value;
      };
      if (found) {
        return finding(`${value} is ${aTitle(found.descriptor)}, not ${aKind(target.kinds)}`);
      }
      if (idKind !== undefined) {
        return finding(
          `${value} is the id of ${aTitle(descriptorOf(idKind))}; expected ${aKind(target.kinds)}`,
        );
      }
      const prefixes = target.kinds.flatMap((k) => descriptorOf(k).idPrefix ?? []).map((p) => `${p}...`);
      if (!map) {
        return finding(
          `${value} is not the id of ${aKind(target.kinds)}: ${target.kinds.map((k) => descriptorOf(k).titlePlural).join(' and ')} are not managed in the config`,
          `reference one by its id (${prefixes.join(', ')})`,
        );
      }
      if (incomplete !== undefined) {
        const where = o.place(path);
        const { line } = locate(where.source, where.path, atKey);
        incomplete.unchecked.push({ source: where.source, line, name: value });
        return value;
      }
      const names = objects
        .filter(
          (x) =>
            x.parentKey === undefined &&
            x.key.startsWith(`${map.key}/`) &&
            target.kinds.includes(x.descriptor.kind),
        )
        .map((x) => x.name);
      return finding(
        `no ${titles(target.kinds)} named ${value} in ${map.key}`,
        didYouMean(value, names) ??
          `define it under ${map.key}, or use the id (${prefixes.join(', ')}) of one this config does not manage`,
      );
    };
    resolved.set(
      o,
      mapReferences(o.fields, o.values, (ref, target, site) =>
        resolveOne(target, ref, site.path, site.atKey),
      ),
    );
    if (named.length > 0) edges.set(o.key, named);
  }
  return { resolved, edges };
}

/** The config map holding the first of a reference's kinds the config declares, once per target. */
const targetMap = derivedOnce((target: RefTarget): MapLayout | undefined =>
  target.kinds.map(mapOfKind).find((m) => m !== undefined),
);

/** A name `o` refers to, as the key of the object it would be, and where the name is written. */
interface ReferenceEdge {
  readonly key: string;
  readonly path: FieldPath;
  readonly atKey: boolean;
}

/**
 * The objects of this config each object refers to by name, found while resolving. Ids are left
 * out: an object the config does not manage cannot be part of a cycle it makes.
 */
type ReferenceEdges = ReadonlyMap<string, readonly ReferenceEdge[]>;

/**
 * Objects that reach themselves through their references (a failover or weighted backend leading
 * back to itself): no order creates them, each needing the other's id first, and the platform could
 * never route such traffic. The service is not documented to refuse one (gaps.md lists no such
 * error), so this is the loader's check alone; it is kind-blind, over every reference field.
 */
export function findCycles(
  objects: readonly DeclaredObject[],
  references: ReferenceEdges,
  out: FileFinding[],
): void {
  const byKey = new Map(objects.map((o) => [o.key, o]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];

  const visit = (key: string): void => {
    state.set(key, 'visiting');
    stack.push(key);
    const o = byKey.get(key)!;
    for (const edge of references.get(key) ?? []) {
      if (!byKey.has(edge.key)) continue;
      const s = state.get(edge.key);
      if (s === 'visiting') {
        const cycle = [...stack.slice(stack.indexOf(edge.key)), edge.key];
        out.push({
          ...o.place(edge.path),
          atKey: edge.atKey,
          message: `references form a cycle: ${cycle.join(' -> ')}`,
          hint: 'an object may not lead back to itself (a failover or weighted backend to itself)',
        });
      } else if (s === undefined) visit(edge.key);
    }
    stack.pop();
    state.set(key, 'done');
  };
  // An object without references is in no cycle: the walks start at those with some, in order.
  for (const key of references.keys()) if (byKey.has(key) && !state.has(key)) visit(key);
}
