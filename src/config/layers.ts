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
  type Declaration,
  type Environment,
  type EnvironmentSettings,
} from './environments.js';
import { expandPaths, type ExpandedFile } from './files.js';
import { configLayout } from './layout.js';
import { isPlainObject } from '../plain-object.js';
import type { EntryPatch } from './overlay.js';
import { locate, type FileFinding, type Place, type SourceFile } from './source.js';
import { readSources, type SourcesRead } from './source-reader.js';
import type { Values } from './sources.js';

/** An entry an overlay removes from the base. */
interface Drop {
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
  /** What is wrong in the environments' declaration and overlays, for the loader to report. */
  readonly findings: readonly FileFinding[];
  /** What reading the overlay files that were not given found, for the loader to report. */
  readonly overlaysRead: Omit<SourcesRead, 'sources'>;
}

const nothingRead: Layers['overlaysRead'] = { findings: [], unread: [] };

const mapKeys = new Set(configLayout.map((m) => m.key));

/** Splits the files given into base and overlays for `environment`, reading the overlays not given. */
export async function environmentLayers(
  given: readonly SourceFile[],
  environment: string | undefined,
  cwd: string,
): Promise<Layers> {
  const findings: FileFinding[] = [];
  const decl = findDeclaration(given, findings);
  if (decl === undefined || decl.environments.size === 0) {
    if (environment !== undefined) findings.push(noSuchEnvironment(given, decl, environment));
    return { ...allBase(given, decl), values: valuesOf(decl, []), findings, overlaysRead: nothingRead };
  }
  if (environment === undefined) return environmentNeeded(given, decl);

  const chain = environmentChain(decl, environment, findings) ?? [];
  const overlayFiles = await expandOverlays(decl, chain, cwd, findings);
  // Overlay files of every environment leave the base, whether or not they were given.
  const overlayPaths = new Set([...overlayFiles.values()].flat().map((f) => f.absolute));
  const base = given.filter((s) => !overlayPaths.has(s.absolute));
  const { overlaysRead, ...overlays } = await readOverlays(given, chain, overlayFiles);
  const last = chain.at(-1);
  return {
    findings,
    overlaysRead,
    environments: [...decl.environments.keys()],
    base,
    ...overlays,
    values: valuesOf(decl, chain),
    ...(last === undefined ? {} : { settings: settingsOf(last) }),
  };
}

/** Every file given is the base: no environment is declared, or none was named. */
function allBase(
  given: readonly SourceFile[],
  decl: Declaration | undefined,
): Omit<Layers, 'values' | 'findings' | 'overlaysRead'> {
  const environments = [...(decl?.environments.keys() ?? [])];
  return { environments, base: given, overlays: [], patches: new Map(), drops: [] };
}

function noSuchEnvironment(
  given: readonly SourceFile[],
  decl: Declaration | undefined,
  environment: string,
): FileFinding {
  return {
    source: decl?.source ?? given[0]!,
    path: [],
    message: `no environment named ${environment}: this config declares no environments`,
    hint: 'declare them under environments: (docs/environments.md), or leave out --env',
  };
}

/** Environments are declared and none was named: the one problem to report. */
function environmentNeeded(given: readonly SourceFile[], decl: Declaration): Layers {
  const plain = allBase(given, decl);
  const { line, column } = locate(decl.source, ['environments'], true);
  return {
    ...plain,
    values: valuesOf(decl, []),
    findings: [],
    overlaysRead: nothingRead,
    needsEnvironment: {
      severity: 'error',
      file: decl.source.file,
      line,
      column,
      path: 'environments',
      message: `this config declares environments (${plain.environments.join(', ')}): name one`,
      hint: 'acctsync <command> --env NAME, or set ACCTSYNC_ENV',
    },
  };
}

/**
 * The overlay files of every declared environment, by environment name; a missing overlay path is
 * reported only for the environments being loaded.
 */
async function expandOverlays(
  decl: Declaration,
  chain: readonly Environment[],
  cwd: string,
  findings: FileFinding[],
): Promise<Map<string, ExpandedFile[]>> {
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
  return overlayFiles;
}

/**
 * The chain's overlay files in order, each once, with their patches and drops; files not given are
 * read, and what reading them found is returned.
 */
async function readOverlays(
  given: readonly SourceFile[],
  chain: readonly Environment[],
  overlayFiles: ReadonlyMap<string, readonly ExpandedFile[]>,
): Promise<Pick<Layers, 'overlays' | 'patches' | 'drops' | 'overlaysRead'>> {
  const byPath = new Map(given.map((s) => [s.absolute, s]));
  const patches = new Map<string, EntryPatch[]>();
  const drops: Drop[] = [];
  const overlays: SourceFile[] = [];
  const readFindings: Diagnostic[] = [];
  const unread: string[] = [];
  for (const env of chain) {
    const files = overlayFiles.get(env.name) ?? [];
    const read = await readSources(files.filter((f) => !byPath.has(f.absolute)));
    readFindings.push(...read.findings);
    unread.push(...read.unread);
    for (const source of read.sources) byPath.set(source.absolute, source);
    for (const f of files) {
      const source = byPath.get(f.absolute);
      if (source === undefined || overlays.includes(source)) continue;
      overlays.push(source);
      collectOverlay(source, env.name, patches, drops);
    }
  }
  return { overlays, patches, drops, overlaysRead: { findings: readFindings, unread } };
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
