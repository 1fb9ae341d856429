/**
 * `export --env`: the live account of one environment, written as what differs from the shared
 * base — the environment's overlay. A base entry the account changed becomes a `patch:` (an
 * RFC 7396 merge patch: changed members, the default (or `null`) for a member the account no
 * longer sets, nested lists such as `rules` whole); a base entry the account no longer has becomes a `drop:`; an
 * object only this account has becomes an addition. Only objects this scope manages count, and
 * those the config pins by `id:` before a takeover (their `id:` goes to the overlay, so the base
 * needs none); the others are not part of the environment (plain `export` writes them for
 * adoption), except the overlay's observed entries, kept as written.
 *
 * With `--move-ids`, the ids are then taken out of the base files (`removeBaseIds`): each named
 * entry's `id:` and those of its nested items (which pair by their natural key under a pinned
 * parent). Ids are per account and every environment reads the base; the overlay just written
 * keeps the ids of objects not taken over yet (`pinned`). The files are edited in place: comments,
 * order and every other member stay as written. One module because both halves are one
 * `export --env` run: the overlay is what lets the base lose its ids.
 */
import { readFile, writeFile } from 'node:fs/promises';
import equal from 'fast-deep-equal';
import { Document, isMap, isSeq, parseDocument } from 'yaml';
import { configLayout, entryMembers, pinMember, type BaseEntry, type MapLayout } from '../config/index.js';
import { compare } from '../compare.js';
import { isPlainObject } from '../plain-object.js';
import { canonicalJson, canonicalValues, withoutPaths, type Field, type Fields } from '../resources/index.js';
import { inert } from '../inert.js';
import {
  commentPlaceholders,
  exportedHeader,
  inertYaml,
  placeholderNotes,
  type AccountExport,
  type DocumentPlaceholder,
} from './document.js';

type Plain = Record<string, unknown>;

export interface OverlayExport {
  /** Merge patches by map, then entry name. */
  readonly patch: Readonly<Record<string, Readonly<Record<string, Plain>>>>;
  /** Base entries the account does not have, by map. */
  readonly drop: Readonly<Record<string, readonly string[]>>;
  /** Objects only this account has, by map, then name. */
  readonly additions: Readonly<Record<string, Readonly<Record<string, Plain>>>>;
  /** Secrets of the additions the API never returns, as `{env: ...}` placeholders. */
  readonly placeholders: readonly DocumentPlaceholder[];
  /** Live objects left out because this scope does not manage them. */
  readonly unmanaged: number;
  /** Live objects the overlay describes: managed by this scope, or pinned by the config's `id:`. */
  readonly described: number;
  /** Keys (`ip_policies/office`) of base entries whose `id:` the overlay now carries. */
  readonly pinned: readonly string[];
}

/** What the config says of the environment beyond its base entries. */
interface OverlayContext {
  /** Every top-level `id:` of the environment's config (base and overlay), by entry key. */
  readonly pins: ReadonlyMap<string, string>;
  /** The overlay's own observed entries, written back as they are: nothing manages them. */
  readonly observed: readonly BaseEntry[];
}

/** `{env: ...}`, `{file: ...}` or `{var: ...}`: a value read at load time, not comparable with the account's. */
function isSource(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isSource);
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  if (keys.length === 1 && ['env', 'file', 'var'].includes(keys[0]!)) return true;
  return Object.values(value).some(isSource);
}

/** The descriptor field behind a member of an entry (`description`, `http_response.status_code`). */
function fieldAt(map: MapLayout, path: readonly string[]): Field | undefined {
  const [head, next] = path;
  if (head === undefined) return undefined;
  if (map.variants === undefined) return path.length === 1 ? map.kinds[0]?.fields[head] : undefined;
  if (path.length === 1) return map.variants.shared[head];
  const variant = map.variants.members.find((m) => m.member === head);
  return path.length === 2 && next !== undefined ? variant?.descriptor.fields[next] : undefined;
}

/** Values compared as the planner compares them: canonical forms, members in any order. */
function same(fields: Fields | undefined, name: string, a: unknown, b: unknown): boolean {
  if (fields === undefined || fields[name] === undefined) return canonicalJson(a) === canonicalJson(b);
  return (
    canonicalJson(canonicalValues(fields, { [name]: a })) ===
    canonicalJson(canonicalValues(fields, { [name]: b }))
  );
}

/** Nested items (rules, routes) compared as a set: their order in the file means nothing. */
function sameItems(fields: Fields, a: unknown, b: unknown): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  const canonical = (items: unknown[]) =>
    items
      .map((item) => canonicalJson(isPlainObject(item) ? withoutDefaults(fields, item) : item))
      .sort(compare);
  return equal(canonical(a), canonical(b));
}

function withoutDefaults(fields: Fields, item: Plain): Plain {
  const kept = Object.entries(item).filter(([k, v]) => {
    const f = fields[k];
    return !(k in entryMembers) && (f?.default === undefined || !equal(v, f.default));
  });
  return canonicalValues(fields, Object.fromEntries(kept));
}

/**
 * Export pins each entry and nested item to its live id (for `--adopt`); an overlay describes
 * objects this environment's scope already manages, which pair by their marker: no pins.
 */
function withoutPins(map: MapLayout, entry: Plain): Plain {
  const kept: Plain = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === pinMember) continue;
    const nested = map.children.some((c) => c.member === key);
    kept[key] =
      nested && Array.isArray(value)
        ? (value as unknown[]).map((item) => (isPlainObject(item) ? withoutPin(item) : item))
        : value;
  }
  return kept;
}

function withoutPin(item: Plain): Plain {
  return Object.fromEntries(Object.entries(item).filter(([k]) => k !== pinMember));
}

/**
 * A changed list of nested items, written whole: the items the base has first, in the base's order,
 * then the account's others, so the reviewer reads the base's list plus what changed.
 */
function inBaseOrder(fields: Fields, base: unknown, live: unknown[]): unknown[] {
  if (!Array.isArray(base)) return live;
  const identity = (item: unknown): string =>
    canonicalJson(isPlainObject(item) ? withoutDefaults(fields, item) : item);
  const rank = new Map(base.map((item, i) => [identity(item), i] as const));
  const at = (item: unknown): number => rank.get(identity(item)) ?? base.length;
  return live
    .map((item, i) => ({ item, i }))
    .sort((a, b) => at(a.item) - at(b.item) || a.i - b.i)
    .map(({ item }) => item);
}

/** The merge patch that turns `base` into `live` (members under `path` of an entry of `map`). */
function mergePatch(map: MapLayout, base: Plain, live: Plain, path: readonly string[] = []): Plain {
  const patch: Plain = {};
  const variant =
    path.length === 1 ? map.variants?.members.find((m) => m.member === path[0])?.descriptor : undefined;
  const fields = path.length === 0 ? (map.variants?.shared ?? map.kinds[0]?.fields) : variant?.fields;
  for (const key of new Set([...Object.keys(base), ...Object.keys(live)])) {
    if (path.length === 0 && key in entryMembers) continue;
    const b = base[key];
    const l = live[key];
    if (isSource(b) || isSource(l)) continue;
    const child = path.length === 0 ? map.children.find((c) => c.member === key) : undefined;
    const field = fieldAt(map, [...path, key]);
    if (l === undefined) {
      // The account is at the service's default (export leaves those out): say which, when known.
      if (field?.default !== undefined) {
        if (!equal(b, field.default)) patch[key] = field.default;
      } else if (b !== undefined) patch[key] = null;
    } else if (b === undefined) {
      patch[key] = l;
    } else if (child !== undefined) {
      if (!sameItems(child.fields, b, l)) patch[key] = Array.isArray(l) ? inBaseOrder(child.fields, b, l) : l;
    } else if (isPlainObject(b) && isPlainObject(l)) {
      const nested = mergePatch(map, b, l, [...path, key]);
      if (Object.keys(nested).length > 0) patch[key] = nested;
    } else if (!same(fields, key, b, l)) {
      patch[key] = l;
    }
  }
  return patch;
}

/** An entry's `ignore:` paths, split into fields. */
function ignoredPaths(entry: Plain): string[][] {
  const ignore = entry.ignore;
  return Array.isArray(ignore)
    ? ignore.filter((p): p is string => typeof p === 'string').map((p) => p.split('.'))
    : [];
}

function add<T>(into: Record<string, Record<string, T>>, map: string, name: string, value: T): void {
  (into[map] ??= {})[name] = value;
}

/** The overlay that turns the base entries into the account `live` exported. */
export function overlayDiff(
  base: ReadonlyMap<string, BaseEntry>,
  live: AccountExport,
  context: OverlayContext,
): OverlayExport {
  const patch: Record<string, Record<string, Plain>> = {};
  const drop: Record<string, string[]> = {};
  const additions: Record<string, Record<string, Plain>> = {};
  const placeholders: DocumentPlaceholder[] = [];
  const pinned: string[] = [];
  const observedIds = new Set(context.observed.map((o) => o.value[pinMember]));
  let unmanaged = 0;
  let described = 0;
  const seen = new Set<string>();
  for (const exported of live.maps) {
    const map = configLayout.find((m) => m.key === exported.key)!;
    for (const entry of exported.entries) {
      const key = `${map.key}/${entry.name}`;
      const id = entry.values[pinMember];
      // Not taken over yet, but the config names it by id: its pin is what `sync --adopt` needs.
      const takeover = !entry.managed && typeof id === 'string' && context.pins.get(key) === id;
      if (!entry.managed && !takeover) {
        if (!observedIds.has(id)) unmanaged++;
        continue;
      }
      described++;
      seen.add(key);
      const written = base.get(key);
      const pin: Plain = takeover ? { [pinMember]: id } : {};
      if (written === undefined) {
        add(additions, map.key, entry.name, { ...pin, ...withoutPins(map, entry.values as Plain) });
        placeholders.push(
          ...live.placeholders.filter((p) => p.path[0] === map.key && p.path[1] === entry.name),
        );
        continue;
      }
      // Fields the base leaves to others (`ignore:`) differ per account by design: never patched.
      const ignored = ignoredPaths(written.value);
      const changes = mergePatch(
        map,
        withoutPaths(written.value, ignored),
        withoutPaths(withoutPins(map, entry.values), ignored),
      );
      if (takeover) pinned.push(key);
      if (takeover || Object.keys(changes).length > 0)
        add(patch, map.key, entry.name, { ...pin, ...changes });
    }
  }
  for (const o of context.observed) add(additions, o.map, o.name, o.value as Plain);
  const exportedMaps = new Set(live.maps.map((m) => m.key));
  for (const [key, entry] of base) {
    // An observed entry is read, never managed: no scope's export sees it as its own.
    if (entry.value.observe === true) continue;
    if (exportedMaps.has(entry.map) && !seen.has(key)) (drop[entry.map] ??= []).push(entry.name);
  }
  return { patch, drop, additions, placeholders, unmanaged, described, pinned };
}

/** The overlay as one YAML file, the secrets of its additions commented like export's. */
export function renderOverlay(overlay: OverlayExport, environment: string): string {
  const content: Plain = { version: 1 };
  if (Object.keys(overlay.drop).length > 0) content.drop = overlay.drop;
  if (Object.keys(overlay.patch).length > 0) content.patch = overlay.patch;
  for (const map of configLayout) {
    const entries = overlay.additions[map.key];
    if (entries !== undefined) content[map.key] = entries;
  }
  const doc = new Document(content);
  const lines = [
    exportedHeader(` --env ${inert(environment)}: the overlay of environment ${inert(environment)},`),
    ' what its account has that differs from the base (docs/environments.md).',
  ];
  lines.push(...placeholderNotes(overlay.placeholders));
  doc.commentBefore = lines.join('\n');
  commentPlaceholders(doc, overlay.placeholders);
  return inertYaml(doc);
}

/** Removes the ids of `keys` (`ip_policies/office`) from `files`; returns the files it changed. */
export async function removeBaseIds(files: readonly string[], keys: readonly string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const doc = parseDocument(text);
    let edited = false;
    for (const key of keys) {
      const [mapKey = '', ...rest] = key.split('/');
      const name = rest.join('/');
      const entry = doc.getIn([mapKey, name], true);
      if (!isMap(entry)) continue;
      if (entry.has(pinMember)) edited = entry.delete(pinMember) || edited;
      const map = configLayout.find((m) => m.key === mapKey);
      for (const child of map?.children ?? []) {
        const items = entry.get(child.member, true);
        if (!isSeq(items)) continue;
        for (const item of items.items) if (isMap(item) && item.delete(pinMember)) edited = true;
      }
    }
    if (!edited) continue;
    await writeFile(file, doc.toString({ lineWidth: 0 }));
    changed.push(file);
  }
  return changed;
}
