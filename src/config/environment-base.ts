/**
 * What one environment starts from, as written: the base's entries with the environment's
 * `{var}` values in place, and the files of its overlay. `export --env` compares the live account
 * with this to write the overlay. The config must load cleanly for the environment first (the
 * loader reports every problem); this only reads what it already checked.
 */
import { findDeclaration } from './environments.js';
import { defaultPaths, expandPaths, type ExpandedFile } from './files.js';
import { declaredEntries, environmentLayers } from './layers.js';
import { isPlainObject } from '../plain-object.js';
import { readSources } from './source-reader.js';
import type { SourceFile } from './source.js';
import type { Values } from './sources.js';

/** One base entry: its map (`ip_policies`), logical name, and members as written. */
export interface BaseEntry {
  readonly map: string;
  readonly name: string;
  readonly value: Readonly<Record<string, unknown>>;
}

interface EnvironmentBase {
  /** Base entries by key (`ip_policies/office`), in file order. */
  readonly entries: ReadonlyMap<string, BaseEntry>;
  /** The base's files, as diagnostics name them and absolute. */
  readonly baseFiles: readonly ExpandedFile[];
  /** The environment's overlay files, as diagnostics name them and absolute. */
  readonly overlayFiles: readonly ExpandedFile[];
  /** The overlay's own observed entries (`observe: true`), as written: no export reads them back. */
  readonly observed: readonly BaseEntry[];
  /** The other environments the config declares, in declaration order. */
  readonly others: readonly string[];
  /** The environment this one extends, if any. */
  readonly extends?: string;
}

/** `{var: name}` replaced by the environment's value; `{env}` and `{file}` stay as written. */
function withValues(value: unknown, values: Values): unknown {
  if (Array.isArray(value)) return value.map((v) => withValues(v, values));
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'var' && typeof value.var === 'string') {
    return values.byName.get(value.var)?.value ?? value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withValues(v, values)]));
}

function entriesOf(sources: readonly SourceFile[], values: Values): Map<string, BaseEntry> {
  const out = new Map<string, BaseEntry>();
  for (const { key, map, name, value } of declaredEntries(sources)) {
    if (isPlainObject(value))
      out.set(key, { map, name, value: withValues(value, values) as Record<string, unknown> });
  }
  return out;
}

/** The base and overlay files of `environment` in the config at `paths`. */
export async function environmentBase(
  paths: readonly string[],
  environment: string,
  cwd: string = process.cwd(),
): Promise<EnvironmentBase> {
  const { files } = await expandPaths(paths.length > 0 ? [...paths] : defaultPaths(cwd), cwd);
  // The config loaded cleanly for this environment before: what reading it finds is known.
  const given = (await readSources(files)).sources;
  const layers = await environmentLayers(given, environment, cwd);
  const environments = findDeclaration(given, [])?.environments;
  const declared = environments?.get(environment);
  const overlayFiles = layers.overlays.map((s) => ({ file: s.file, absolute: s.absolute }));
  const observed = [...declaredEntries(layers.overlays)]
    .filter(({ value }) => isPlainObject(value) && value.observe === true)
    .map(({ map, name, value }) => ({ map, name, value: value as Record<string, unknown> }));
  return {
    entries: entriesOf(layers.base, layers.values),
    baseFiles: layers.base.map((s) => ({ file: s.file, absolute: s.absolute })),
    overlayFiles,
    observed,
    others: [...(environments?.keys() ?? [])].filter((name) => name !== environment),
    ...(declared?.extends === undefined ? {} : { extends: declared.extends }),
  };
}
