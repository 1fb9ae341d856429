/**
 * The data `exportAccount` hands to the renderers: the account described as config maps, with the
 * placeholders and notes the written files carry. Its own module so that the renderers and the
 * exporter depend on it rather than on each other.
 */
import type { Placeholder } from './values.js';

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
  /** Things to fix before a sync can take the objects over (metadata too long for the marker). */
  readonly warnings: readonly string[];
}
