/**
 * `exportAccount`: the live account → the desired-state config that describes it. Reads each
 * collection once, names every object, and converts records to config values; `renderExport` turns
 * the result into YAML files.
 */
import { compare } from '../compare.js';
import type { ApiClient } from '../api/index.js';
import { configLayout, pinMember, type MapLayout } from '../config/index.js';
import { readLiveState, type LiveObject, type LiveState } from '../live/index.js';
import { markedMetadata, naturalName, writtenPlaceholder, type KindDescriptor } from '../resources/index.js';
import { UserError } from '../errors.js';
import { exportableMaps } from './maps.js';
import { NameAllocator, nameCandidates, slugify } from './names.js';
import type { AccountExport, ExportedEntry, ExportedMap } from './document.js';
import { configValues, type Placeholder, type ValueContext } from './values.js';

export { renderExport, writtenByExport, type AccountExport, type OutputFile } from './document.js';

type Path = readonly (string | number)[];

interface ExportOptions {
  readonly client: ApiClient;
  /** The scope written to the config; objects another scope manages are left out. */
  readonly scope: string;
  /** Config maps to export (`ip_policies`, `backends`); every map when absent or empty. */
  readonly maps?: readonly string[];
  /**
   * Names the config already gives objects no marker names (observed entries pinned by `id:`), by
   * live id: references to them are written with the config's name.
   */
  readonly knownNames?: ReadonlyMap<string, string>;
}

function selectMaps(keys: readonly string[] | undefined): MapLayout[] {
  if (keys === undefined || keys.length === 0) return [...configLayout];
  const unknown = keys.filter((k) => !exportableMaps.includes(k));
  if (unknown.length > 0) {
    throw new UserError(`unknown kind ${unknown.join(', ')}`, {
      details: [`Kinds are the config's top-level maps: ${exportableMaps.join(', ')}.`],
    });
  }
  return configLayout.filter((m) => keys.includes(m.key));
}

/** `ACCTSYNC_<MAP>_<NAME>_<FIELD PATH>`, upper case, one underscore between words. */
function variableName(mapKey: string, name: string, path: Path): string {
  return ['ACCTSYNC', mapKey, name, ...path.map(String)]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');
}

/** The name an ownership marker of this scope already gives a top-level object, if any. */
function markedName(map: MapLayout, marker: { key: string } | undefined): string | undefined {
  const prefix = `${map.key}/`;
  if (marker === undefined || !marker.key.startsWith(prefix)) return undefined;
  const name = marker.key.slice(prefix.length);
  return name === '' || name.includes('/') ? undefined : name;
}

interface Selected {
  /** By kind, in id order. */
  readonly records: ReadonlyMap<KindDescriptor, readonly LiveObject[]>;
  readonly otherScopes: Array<{ id: string; scope: string }>;
}

/** Keeps the objects this scope may describe: unmarked or marked with this scope, parents kept. */
function selectRecords(maps: readonly MapLayout[], live: LiveState, scope: string): Selected {
  const otherScopes: Array<{ id: string; scope: string }> = [];
  const records = new Map<KindDescriptor, readonly LiveObject[]>();
  const kept = new Set<string>();
  const ours = (o: LiveObject): boolean => {
    if (o.marker === undefined || o.marker.scope === scope) return true;
    otherScopes.push({ id: o.id, scope: o.marker.scope });
    return false;
  };
  const ofKind = (d: KindDescriptor): LiveObject[] => live.objects.filter((o) => o.kind === d.kind);
  for (const map of maps) {
    for (const d of map.kinds) {
      const list = ofKind(d).filter(ours);
      list.forEach((o) => kept.add(o.id));
      records.set(d, list);
    }
    for (const child of map.children) {
      const d = child.descriptor;
      records.set(
        d,
        ofKind(d).filter((o) => kept.has(o.parentId ?? '') && ours(o)),
      );
    }
  }
  return { records, otherScopes };
}

/** `parent`'s children of kind `d`, in the order the parent lists them when it embeds them. */
function childrenOf(d: KindDescriptor, parent: LiveObject, selected: Selected): LiveObject[] {
  const children = (selected.records.get(d) ?? []).filter((c) => c.parentId === parent.id);
  const embedded = d.parent?.embeddedAs === undefined ? undefined : parent.record[d.parent.embeddedAs];
  if (!Array.isArray(embedded)) return children;
  const position = new Map(embedded.map((item: unknown, i) => [(item as { id?: unknown } | null)?.id, i]));
  return children.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

/** Names every top-level object: marker names first (so a managed object keeps its key), then the rest in id order. */
function assignNames(
  maps: readonly MapLayout[],
  selected: Selected,
  scope: string,
  known: ReadonlyMap<string, string> = new Map(),
): Map<string, string> {
  const names = new Map<string, string>();
  for (const map of maps) {
    const allocator = new NameAllocator();
    const members = map.kinds.flatMap((d) => (selected.records.get(d) ?? []).map((o) => ({ d, o })));
    members.sort((a, b) => compare(a.o.id, b.o.id));
    const rest = members.filter(({ o }) => {
      const name = (o.marker?.scope === scope ? markedName(map, o.marker) : undefined) ?? known.get(o.id);
      if (name === undefined || !allocator.reserve(name)) return true;
      names.set(o.id, name);
      return false;
    });
    for (const { d, o } of rest) names.set(o.id, allocator.allocate(nameCandidates(d, o.record)));
  }
  return names;
}

/**
 * What names a nested item in its placeholders: its name in the config (a route's match, a rule's
 * CIDR), so that deleting a sibling does not rename the variables of the others.
 */
function itemCandidates(d: KindDescriptor, item: LiveObject): string[] {
  const name = naturalName(d, item.record, -1);
  const key = name.startsWith('#') ? '' : slugify(name);
  return key === '' ? [slugify(d.title)] : [key];
}

/**
 * A warning when `object`'s metadata leaves no room for the ownership marker a sync adds: the
 * adoption would be refused. The API returns no secrets, so their hashes are not counted.
 */
function markerRoom(d: KindDescriptor, object: LiveObject, key: string, scope: string): string[] {
  const { tooLong } = markedMetadata(d, key, { ...object.record, metadata: object.userMetadata }, scope, {
    protect: object.marker?.protect === true,
    written: writtenPlaceholder,
  });
  return tooLong === undefined ? [] : [`${key} (${object.id}): ${tooLong} before adopting`];
}

function prefixed(placeholders: readonly Placeholder[], prefix: Path): Placeholder[] {
  return placeholders.map((p) => ({ path: [...prefix, ...p.path], variable: p.variable }));
}

/** Reads the live account and describes it in the config format. */
export async function exportAccount(options: ExportOptions): Promise<AccountExport> {
  const maps = selectMaps(options.maps);
  const kinds = maps.flatMap((m) => [...m.kinds, ...m.children.map((c) => c.descriptor)]);
  const live = await readLiveState(
    options.client,
    kinds.map((d) => d.kind),
  );
  const selected = selectRecords(maps, live, options.scope);
  const names = assignNames(maps, selected, options.scope, options.knownNames);
  const placeholders: Placeholder[] = [];
  const warnings: string[] = [];

  const exported = maps.map((map): ExportedMap => {
    const entries: ExportedEntry[] = [];
    for (const d of map.kinds) {
      for (const object of selected.records.get(d) ?? []) {
        const { record } = object;
        const name = names.get(object.id) ?? object.id;
        const context = (base: Path): ValueContext => ({
          nameOf: (id) => names.get(id),
          variableFor: (path) => variableName(map.key, name, [...base, ...path]),
        });
        const own = configValues(d.fields, d.rules, record, context([]));
        warnings.push(...markerRoom(d, object, `${map.key}/${name}`, options.scope));
        // The pin first: `sync --adopt` pairs the entry with exactly this object.
        const values: Record<string, unknown> = { [pinMember]: object.id };
        const variant = map.variants === undefined ? undefined : (d.config?.variant ?? d.kind);
        const inVariant: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(own.values)) {
          if (variant !== undefined && map.variants?.shared[k] === undefined) inVariant[k] = v;
          else values[k] = v;
        }
        if (variant !== undefined) values[variant] = inVariant;
        placeholders.push(
          ...own.placeholders.map((p) => {
            const head = p.path[0];
            const underVariant = variant !== undefined && map.variants?.shared[String(head)] === undefined;
            return {
              path: [map.key, name, ...(underVariant ? [variant] : []), ...p.path],
              variable: p.variable,
            };
          }),
        );
        for (const child of map.children) {
          const items = childrenOf(child.descriptor, object, selected);
          if (items.length === 0) continue;
          const itemNames = new NameAllocator();
          values[child.member] = items.map((item, i) => {
            const converted = configValues(
              child.fields,
              child.descriptor.rules,
              item.record,
              context([child.member, itemNames.allocate(itemCandidates(child.descriptor, item))]),
            );
            placeholders.push(...prefixed(converted.placeholders, [map.key, name, child.member, i]));
            return { [pinMember]: item.id, ...converted.values };
          });
        }
        entries.push({ name, values, managed: object.marker?.scope === options.scope });
      }
    }
    entries.sort((a, b) => compare(a.name, b.name));
    return { key: map.key, entries };
  });
  return {
    scope: options.scope,
    maps: exported,
    placeholders,
    otherScopes: selected.otherScopes,
    warnings,
  };
}
export { overlayDiff, removeBaseIds, renderOverlay, type OverlayExport } from './environment.js';
