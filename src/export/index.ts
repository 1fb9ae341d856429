/**
 * `exportAccount`: the live account → the desired-state config that describes it. Reads each
 * collection once, names every object, and converts records to config values; `renderExport` turns
 * the result into YAML files.
 */
import type { ApiClient } from '../api/index.js';
import { configLayout, type MapLayout } from '../config/layout.js';
import { parseMetadata } from '../plan/ownership.js';
import type { KindDescriptor } from '../resources/index.js';
import { UserError } from '../errors.js';
import { fetchAccount, parentIdOf, type LiveAccount, type LiveRecord } from './fetch.js';
import { NameAllocator, nameCandidates } from './names.js';
import { configValues, type Placeholder, type ValueContext } from './values.js';

export { renderExport, type OutputFile } from './document.js';

type Path = readonly (string | number)[];

export interface ExportOptions {
  readonly client: ApiClient;
  /** The scope written to the config; objects another scope manages are left out. */
  readonly scope: string;
  /** Config maps to export (`ip_policies`, `backends`); every map when absent or empty. */
  readonly maps?: readonly string[];
}

/** One exported object: its logical name and the values of its config entry. */
export interface ExportedEntry {
  readonly name: string;
  readonly values: Readonly<Record<string, unknown>>;
  /** The live object carries this scope's ownership marker (a sync made or adopted it). */
  readonly managed: boolean;
}

/** One top-level map of the config with its entries, sorted by name. */
export interface ExportedMap {
  readonly key: string;
  readonly entries: readonly ExportedEntry[];
}

/** A secret placeholder with its path in the whole document (`[map, name, ...fields]`). */
export type DocumentPlaceholder = Placeholder;

export interface AccountExport {
  readonly scope: string;
  /** The selected maps in the config's order, empty ones included. */
  readonly maps: readonly ExportedMap[];
  /** Secrets the user must provide through these variables before a sync. */
  readonly placeholders: readonly DocumentPlaceholder[];
  /** Objects left out because another scope manages them, by id. */
  readonly otherScopes: ReadonlyArray<{ readonly id: string; readonly scope: string }>;
}

/** The config map keys, for `--kind` help and checking. */
export const exportableMaps: readonly string[] = configLayout.map((m) => m.key);

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

/** The service issues these itself (automatic certificate management); they cannot be uploaded back. */
function issuedByService(record: LiveRecord): boolean {
  return record.issued_at !== undefined && record.issued_at !== null;
}

/** The name an ownership marker of this scope already gives a top-level object, if any. */
function markedName(map: MapLayout, marker: { key: string } | undefined): string | undefined {
  const prefix = `${map.key}/`;
  if (marker === undefined || !marker.key.startsWith(prefix)) return undefined;
  const name = marker.key.slice(prefix.length);
  return name === '' || name.includes('/') ? undefined : name;
}

interface Selected {
  readonly records: ReadonlyMap<KindDescriptor, readonly LiveRecord[]>;
  readonly otherScopes: Array<{ id: string; scope: string }>;
}

/** Keeps the records this scope may describe: unmarked or marked with this scope, parents kept. */
function selectRecords(maps: readonly MapLayout[], live: LiveAccount, scope: string): Selected {
  const otherScopes: Array<{ id: string; scope: string }> = [];
  const records = new Map<KindDescriptor, readonly LiveRecord[]>();
  const kept = new Set<string>();
  const ours = (r: LiveRecord): boolean => {
    const marker = parseMetadata(typeof r.metadata === 'string' ? r.metadata : undefined).marker;
    if (marker !== undefined && marker.scope !== scope) {
      otherScopes.push({ id: r.id, scope: marker.scope });
      return false;
    }
    return !issuedByService(r);
  };
  for (const map of maps) {
    for (const d of map.kinds) {
      const list = (live.get(d.kind) ?? []).filter(ours);
      list.forEach((r) => kept.add(r.id));
      records.set(d, list);
    }
    for (const child of map.children) {
      const d = child.descriptor;
      const list = (live.get(d.kind) ?? []).filter((r) => kept.has(parentIdOf(d, r) ?? '') && ours(r));
      records.set(d, list);
    }
  }
  return { records, otherScopes };
}

/** Names every top-level object: marker names first (so a managed object keeps its key), then the rest in id order. */
function assignNames(maps: readonly MapLayout[], selected: Selected, scope: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const map of maps) {
    const allocator = new NameAllocator();
    const members = map.kinds.flatMap((d) => (selected.records.get(d) ?? []).map((r) => ({ d, r })));
    members.sort((a, b) => (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
    const rest = members.filter(({ r }) => {
      const marker = parseMetadata(typeof r.metadata === 'string' ? r.metadata : undefined).marker;
      const name = marker?.scope === scope ? markedName(map, marker) : undefined;
      if (name === undefined || !allocator.reserve(name)) return true;
      names.set(r.id, name);
      return false;
    });
    for (const { d, r } of rest) names.set(r.id, allocator.allocate(nameCandidates(d, r)));
  }
  return names;
}

function prefixed(placeholders: readonly Placeholder[], prefix: Path): Placeholder[] {
  return placeholders.map((p) => ({ path: [...prefix, ...p.path], variable: p.variable }));
}

/** Reads the live account and describes it in the config format. */
export async function exportAccount(options: ExportOptions): Promise<AccountExport> {
  const maps = selectMaps(options.maps);
  const descriptorsToRead = maps.flatMap((m) => [...m.kinds, ...m.children.map((c) => c.descriptor)]);
  const live = await fetchAccount(options.client, descriptorsToRead);
  const selected = selectRecords(maps, live, options.scope);
  const names = assignNames(maps, selected, options.scope);
  const placeholders: Placeholder[] = [];

  const exported = maps.map((map): ExportedMap => {
    const entries: ExportedEntry[] = [];
    for (const d of map.kinds) {
      for (const record of selected.records.get(d) ?? []) {
        const name = names.get(record.id) ?? record.id;
        const context = (base: Path): ValueContext => ({
          nameOf: (id) => names.get(id),
          variableFor: (path) => variableName(map.key, name, [...base, ...path]),
        });
        const own = configValues(d.fields, d.rules, record, context([]));
        const values: Record<string, unknown> = {};
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
          const items = (selected.records.get(child.descriptor) ?? []).filter(
            (c) => parentIdOf(child.descriptor, c) === record.id,
          );
          if (items.length === 0) continue;
          values[child.member] = items.map((item, i) => {
            const converted = configValues(
              child.fields,
              child.descriptor.rules,
              item,
              context([child.member, i]),
            );
            placeholders.push(...prefixed(converted.placeholders, [map.key, name, child.member, i]));
            return converted.values;
          });
        }
        const marker = parseMetadata(
          typeof record.metadata === 'string' ? record.metadata : undefined,
        ).marker;
        entries.push({ name, values, managed: marker?.scope === options.scope });
      }
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { key: map.key, entries };
  });
  return { scope: options.scope, maps: exported, placeholders, otherScopes: selected.otherScopes };
}
