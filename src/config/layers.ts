/**
 * Which files make up one environment's desired state: the base (every file given, less every
 * environment's overlays) and the overlays of the environment and those it extends, with the
 * patches, drops and `{var}` values they bring. Without declared environments, everything given
 * is the base, as it always was.
 */
import { dirname, relative } from 'node:path';
import type { Diagnostic } from './diagnostic.js';
import {
  environmentChain,
  findDeclaration,
  settingsOf,
  valuesOf,
  type EnvironmentSettings,
} from './environments.js';
import { expandPaths, type ExpandedFile } from './files.js';
import { configLayout } from './layout.js';
import { isPlainObject } from '../plain-object.js';
import type { EntryPatch, PatchConflict } from './overlay.js';
import { locate, type FileFinding, type Place, type SourceFile } from './source.js';
import type { Values } from './sources.js';
import { closest } from './suggest.js';

/** An entry an overlay removes from the base. */
export interface Drop {
  readonly key: string;
  readonly place: Place;
}

export interface Layers {
  /** Every declared environment, in declaration order. */
  readonly environments: readonly string[];
  /** Set when environments are declared and none was named: the one problem to report. */
  readonly needsEnvironment?: Diagnostic;
  readonly base: readonly SourceFile[];
  readonly overlays: readonly SourceFile[];
  readonly values: Values;
  readonly patches: ReadonlyMap<string, readonly EntryPatch[]>;
  readonly drops: readonly Drop[];
  readonly settings?: EnvironmentSettings;
}

const overlaySections = ['patch', 'drop'] as const;
const mapKeys = new Set(configLayout.map((m) => m.key));

/** Splits the files given into base and overlays for `environment`. */
export async function environmentLayers(
  given: readonly SourceFile[],
  environment: string | undefined,
  cwd: string,
  read: (files: readonly ExpandedFile[]) => Promise<SourceFile[]>,
  report: (findings: readonly FileFinding[]) => void,
): Promise<Layers> {
  const findings: FileFinding[] = [];
  const decl = findDeclaration(given, findings);
  report(findings.splice(0));
  const names = [...(decl?.environments.keys() ?? [])];
  const plain = { environments: names, base: given, overlays: [], patches: new Map(), drops: [] };
  if (decl === undefined || decl.environments.size === 0) {
    if (environment !== undefined) {
      report([
        {
          source: decl?.source ?? given[0]!,
          path: [],
          message: `no environment named ${environment}: this config declares no environments`,
          hint: 'declare them under environments: (docs/environments.md), or leave out --env',
        },
      ]);
    }
    return { ...plain, values: valuesOf(decl, []) };
  }
  if (environment === undefined) {
    const { line, column } = locate(decl.source, ['environments'], true);
    return {
      ...plain,
      values: valuesOf(decl, []),
      needsEnvironment: {
        severity: 'error',
        file: decl.source.file,
        line,
        column,
        path: 'environments',
        message: `this config declares environments (${names.join(', ')}): name one`,
        hint: 'acctsync <command> --env NAME, or set ACCTSYNC_ENV',
      },
    };
  }

  // Overlay files of every environment leave the base, whether or not they were given.
  const chain = environmentChain(decl, environment, findings) ?? [];
  const overlayFiles = new Map<string, ExpandedFile[]>();
  for (const env of decl.environments.values()) {
    const { files, missing } = await expandPaths(env.paths, cwd);
    overlayFiles.set(env.name, files);
    if (!chain.includes(env)) continue;
    for (const path of missing) {
      findings.push({
        source: decl.source,
        path: [...env.at, 'paths'],
        message: `${relative(dirname(decl.source.absolute), path)} does not exist`,
        hint: 'overlay paths are relative to this file',
      });
    }
  }
  const overlayPaths = new Set([...overlayFiles.values()].flat().map((f) => f.absolute));
  const base = given.filter((s) => !overlayPaths.has(s.absolute));
  const byPath = new Map(given.map((s) => [s.absolute, s]));
  const patches = new Map<string, EntryPatch[]>();
  const drops: Drop[] = [];
  const overlays: SourceFile[] = [];
  for (const env of chain) {
    const files = overlayFiles.get(env.name) ?? [];
    const unreadFiles = files.filter((f) => !byPath.has(f.absolute));
    for (const source of await read(unreadFiles)) byPath.set(source.absolute, source);
    for (const f of files) {
      const source = byPath.get(f.absolute);
      if (source === undefined || overlays.includes(source)) continue;
      overlays.push(source);
      collectOverlay(source, env.name, patches, drops);
    }
  }
  report(findings);
  const last = chain.at(-1);
  return {
    environments: names,
    base,
    overlays,
    values: valuesOf(decl, chain),
    patches,
    drops,
    ...(last === undefined ? {} : { settings: settingsOf(last) }),
  };
}

/** The `patch:` entries and `drop:` names of one overlay file. */
function collectOverlay(
  source: SourceFile,
  layer: string,
  patches: Map<string, EntryPatch[]>,
  drops: Drop[],
): void {
  if (!isPlainObject(source.value)) return;
  const { patch, drop } = source.value;
  if (isPlainObject(patch)) {
    for (const [map, entries] of Object.entries(patch)) {
      if (!mapKeys.has(map) || !isPlainObject(entries)) continue;
      for (const [name, value] of Object.entries(entries)) {
        if (!isPlainObject(value)) continue;
        const key = `${map}/${name}`;
        const list = patches.get(key) ?? [];
        list.push({ place: { source, path: ['patch', map, name] }, value, layer });
        patches.set(key, list);
      }
    }
  }
  if (isPlainObject(drop)) {
    for (const [map, names] of Object.entries(drop)) {
      if (!mapKeys.has(map) || !Array.isArray(names)) continue;
      names.forEach((name, i) => {
        if (typeof name === 'string')
          drops.push({ key: `${map}/${name}`, place: { source, path: ['drop', map, i] } });
      });
    }
  }
}

/** `patch:` and `drop:` change a base: in a base file they have nothing to change. */
export function overlayOnlySections(source: SourceFile): FileFinding[] {
  if (!isPlainObject(source.value)) return [];
  const value = source.value;
  return overlaySections
    .filter((section) => section in value)
    .map((section) => ({
      source,
      path: [section],
      atKey: true,
      message: `${section}: belongs in an environment's overlay file; this file is part of the base`,
      hint: 'list this file under environments.<name>.paths, or write the objects directly',
    }));
}

/** Every map entry the files declare, in file order: its key (`ip_policies/office`), map, name and value. */
export function* declaredEntries(sources: readonly SourceFile[]): Generator<{
  readonly key: string;
  readonly map: string;
  readonly name: string;
  readonly value: unknown;
  readonly source: SourceFile;
}> {
  for (const source of sources) {
    if (!isPlainObject(source.value)) continue;
    for (const map of configLayout) {
      const entries = source.value[map.key];
      if (!isPlainObject(entries)) continue;
      for (const [name, value] of Object.entries(entries))
        yield { key: `${map.key}/${name}`, map: map.key, name, value, source };
    }
  }
}

/** Where each entry is declared, by key (`ip_policies/office`). */
function entryPlaces(sources: readonly SourceFile[]): Map<string, Place> {
  const out = new Map<string, Place>();
  for (const { key, map, name, source } of declaredEntries(sources)) {
    if (!out.has(key)) out.set(key, { source, path: [map, name] });
  }
  return out;
}

function where(place: Place): string {
  return `${place.source.file}:${locate(place.source, place.path, true).line}`;
}

/** Patches and drops of entries that no file declares: an error at the overlay, naming the nearest base entry. */
export function missingTargets(sources: readonly SourceFile[], layers: Layers): FileFinding[] {
  const declared = entryPlaces(sources);
  const targets: Array<{ key: string; place: Place; verb: string }> = [
    ...[...layers.patches].flatMap(([key, list]) =>
      list.map((p) => ({ key, place: p.place, verb: 'patches' })),
    ),
    ...layers.drops.map((d) => ({ key: d.key, place: d.place, verb: 'drops' })),
  ];
  return targets
    .filter((t) => !declared.has(t.key))
    .map((t) => {
      const map = t.key.slice(0, t.key.indexOf('/'));
      const near = closest(
        t.key,
        [...declared.keys()].filter((k) => k.startsWith(`${map}/`)),
      );
      const nearPlace = near === undefined ? undefined : declared.get(near);
      return {
        source: t.place.source,
        path: t.place.path,
        atKey: true,
        message: `this overlay ${t.verb} ${t.key}, which the base does not define`,
        hint:
          near !== undefined && nearPlace !== undefined
            ? `did you mean ${near} (${where(nearPlace)})?`
            : `define ${t.key} in the base, or add it in this overlay under ${map}:`,
      };
    });
}

/** Two files of one environment setting one value. */
export function conflictFinding(c: PatchConflict): FileFinding {
  return {
    source: c.second.source,
    path: c.second.path,
    atKey: true,
    message: `this value is also patched at ${where(c.first)}, in another file of the same environment`,
    hint: 'patch each value in one overlay file only',
  };
}
