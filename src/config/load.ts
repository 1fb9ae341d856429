/**
 * The loader: files → parsed documents → structural check → objects (sources resolved) → rule
 * check → cross-object checks → the desired state. Every stage collects findings; the result is
 * either the state (with warnings) or every error, each placed at its file, line and column.
 */
import type { DesiredObject, DesiredState } from '../resources/index.js';
import { formatDocPath, type Diagnostic, type DocPath, type Finding } from './diagnostic.js';
import type { EnvironmentSettings } from './environments.js';
import { defaultPaths, expandPaths, type ExpandedFile } from './files.js';
import { environmentLayers } from './layers.js';
import { conflictFinding, missingTargets, overlayOnlySections } from './overlay-findings.js';
import { declaredObjects, type DeclareContext, type DeclaredObject } from './objects.js';
import { findCycles, resolveReferences, uniqueObjects, type UncheckedReference } from './references.js';
import { checkStructure } from './schema-check.js';
import { checkObject } from './semantic.js';
import { markedMetadata } from '../resources/ownership/marked-metadata.js';
import {
  locate,
  readSource,
  scalarSpan,
  type FileFinding,
  type PlacedFinding,
  type SourceFile,
} from './source.js';

/** Text offsets of a secret written literally in a file: code frames blank them. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
}

/** Secret spans by file, named as diagnostics name files. */
export type SecretSpans = Readonly<Record<string, readonly SecretSpan[]>>;

export type LoadResult =
  | {
      readonly ok: true;
      readonly state: DesiredState;
      readonly warnings: Diagnostic[];
      readonly files: string[];
      readonly secretSpans: SecretSpans;
      /** The environment loaded, when the config declares environments. */
      readonly environment?: EnvironmentSettings;
      /** Every environment the config declares, in declaration order. */
      readonly environments: readonly string[];
    }
  | {
      readonly ok: false;
      readonly diagnostics: Diagnostic[];
      readonly files: string[];
      readonly secretSpans: SecretSpans;
      readonly environments: readonly string[];
      /** The config declares environments and none was named: nothing else was checked. */
      readonly needsEnvironment?: true;
    };

export interface LoadOptions {
  /** Where `{env}` values come from; defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Base of relative paths and of the file names in diagnostics; defaults to `process.cwd()`. */
  readonly cwd?: string;
  /** The environment to load, for a config that declares environments. */
  readonly environment?: string;
}

const defaultScope = 'default';

function diagnostic(file: string, f: PlacedFinding): Diagnostic {
  return {
    severity: f.severity ?? 'error',
    file,
    line: f.line,
    column: f.column,
    path: formatDocPath(f.path),
    message: f.message,
    ...(f.expected !== undefined ? { expected: f.expected } : {}),
    ...(f.found !== undefined ? { found: f.found } : {}),
    ...(f.hint !== undefined ? { hint: f.hint } : {}),
  };
}

function placed(source: SourceFile, f: Finding): Diagnostic {
  return diagnostic(source.file, { ...f, ...locate(source, f.path, f.atKey) });
}

function isUnder(path: DocPath, prefix: DocPath): boolean {
  return prefix.length <= path.length && prefix.every((seg, i) => String(seg) === String(path[i]));
}

/**
 * Loads the desired state from `paths` (files or directories; default `account/` or
 * `acctsync.yaml`). Never throws for bad input: problems come back as diagnostics.
 */
export async function loadDesiredState(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const { files, missing } = await expandPaths(paths.length > 0 ? paths : defaultPaths(cwd), cwd);
  const names = files.map((f) => f.file);
  const diagnostics: Diagnostic[] = missing.map((p) => ({
    severity: 'error',
    file: p,
    line: 1,
    column: 1,
    path: '',
    message: `${p} does not exist`,
    hint: 'give a YAML file or a directory of them',
  }));
  if (files.length === 0 && missing.length === 0) {
    diagnostics.push({
      severity: 'error',
      file: paths.join(' '),
      line: 1,
      column: 1,
      path: '',
      message: 'no *.yaml or *.yml files found',
    });
  }

  const unread: string[] = [];
  const read = async (list: readonly ExpandedFile[]): Promise<SourceFile[]> => {
    const out: SourceFile[] = [];
    for (const f of list) {
      const result = await readSource(f.file, f.absolute);
      diagnostics.push(...result.findings.map((x) => diagnostic(f.file, x)));
      if (result.ok) out.push(result.source);
      else unread.push(f.file);
    }
    return out;
  };
  const given = await read(files);

  // Paths already reported per file: later passes do not repeat a problem there or below it.
  const reported = new Map<SourceFile, DocPath[]>();
  const report = (source: SourceFile, findings: readonly Finding[]): void => {
    const seen = reported.get(source) ?? [];
    reported.set(source, seen);
    for (const f of findings) {
      const isError = (f.severity ?? 'error') === 'error';
      if (isError && seen.some((p) => isUnder(f.path, p))) continue;
      if (isError) seen.push(f.path);
      diagnostics.push(placed(source, f));
    }
  };
  const reportAll = (findings: readonly FileFinding[]): void => {
    for (const f of findings) report(f.source, [f]);
  };

  const layers = await environmentLayers(given, options.environment, cwd, read, reportAll);
  const declared = layers.environments;
  if (layers.needsEnvironment) {
    return {
      ok: false,
      diagnostics: [layers.needsEnvironment],
      files: names,
      secretSpans: {},
      environments: declared,
      needsEnvironment: true,
    };
  }
  const sources = [...layers.base, ...layers.overlays];
  for (const source of sources) report(source, checkStructure(source.value));
  for (const source of layers.base) reportAll(overlayOnlySections(source));

  const findings: FileFinding[] = [];
  const ctx: DeclareContext = {
    env,
    values: layers.values,
    patches: layers.patches,
    drops: new Set(layers.drops.map((d) => d.key)),
    findings,
    onConflict: (c) => findings.push(conflictFinding(c)),
  };
  let objects: DeclaredObject[] = [];
  const scopes: Array<{ source: SourceFile; scope: string }> = [];
  for (const source of sources) {
    objects.push(...declaredObjects(source, ctx));
    const scope = (source.value as Record<string, unknown>).scope;
    if (typeof scope === 'string') scopes.push({ source, scope });
  }
  reportAll(findings);
  reportAll(missingTargets(sources, layers));
  for (const o of objects) reportAll(checkObject(o));

  // Before duplicates are dropped: a duplicate's secret is in its file all the same.
  const secretSpans = literalSecrets(objects);
  const cross: FileFinding[] = [];
  objects = uniqueObjects(objects, cross);
  const unchecked: UncheckedReference[] = [];
  const resolved = resolveReferences(objects, cross, unread.length > 0 ? { unchecked } : undefined);
  findCycles(objects, cross);
  checkScopes(scopes, cross);
  checkMetadataWithMarker(objects, resolved, scopes[0]?.scope ?? defaultScope, cross);
  reportAll(cross);
  diagnostics.push(...uncheckedNote(unread, unchecked));

  const shown = diagnostics.map((d) => withoutSecretFound(d, secretSpans, sources));
  const errors = shown.filter((d) => d.severity === 'error');
  const warnings = shown.filter((d) => d.severity === 'warning');
  if (errors.length > 0) {
    return {
      ok: false,
      diagnostics: [...errors, ...warnings],
      files: names,
      secretSpans,
      environments: declared,
    };
  }

  const desired: DesiredObject[] = objects.map((o) => ({
    kind: o.descriptor.kind,
    key: o.key,
    name: o.name,
    ...(o.parentKey !== undefined ? { parentKey: o.parentKey } : {}),
    ...(o.pin !== undefined ? { pin: o.pin } : {}),
    fields: resolved.get(o) ?? o.values,
    sensitive: o.sensitive,
    source: { file: o.source.file, ...locate(o.source, o.entryPath, true) },
    ...(o.protect === undefined ? {} : { protect: o.protect }),
  }));
  const scope = layers.settings?.scope ?? scopes[0]?.scope ?? defaultScope;
  return {
    ok: true,
    state: { scope, objects: desired },
    warnings,
    files: sources.map((o) => o.file),
    secretSpans,
    ...(layers.settings === undefined ? {} : { environment: layers.settings }),
    environments: declared,
  };
}

/**
 * One warning per file that did not parse, in place of the "no such object" errors its objects
 * would have answered: the names it may define were not checked.
 */
function uncheckedNote(unread: readonly string[], unchecked: readonly UncheckedReference[]): Diagnostic[] {
  if (unchecked.length === 0) return [];
  const shown = unchecked.slice(0, 5).map((u) => `${u.name} (${u.source.file}:${u.line})`);
  const more = unchecked.length > shown.length ? ` and ${unchecked.length - shown.length} more` : '';
  return unread.map((file) => ({
    severity: 'warning',
    file,
    line: 1,
    column: 1,
    path: '',
    message: `references to names this file may define were not checked, because it did not parse: ${shown.join(', ')}${more}`,
    hint: 'fix this file first; the references are checked once it parses',
  }));
}

/** Where secrets sit as plain text in the files (values from `{env}`/`{file}` are not in them). */
function literalSecrets(declared: readonly DeclaredObject[]): SecretSpans {
  const out: Record<string, SecretSpan[]> = {};
  for (const o of declared) {
    for (const path of o.sensitive) {
      const { source, path: at } = o.place(path);
      const span = scalarSpan(source, at);
      if (span !== undefined) (out[source.file] ??= []).push(span);
    }
  }
  return out;
}

/** A diagnostic about a secret value says what was expected, never what was found. */
function withoutSecretFound(d: Diagnostic, spans: SecretSpans, sources: readonly SourceFile[]): Diagnostic {
  const source = sources.find((s) => s.file === d.file);
  const inFile = spans[d.file];
  if (d.found === undefined || source === undefined || inFile === undefined) return d;
  const offset = source.lineCounter.lineStarts[d.line - 1];
  if (offset === undefined) return d;
  const at = offset + d.column - 1;
  if (!inFile.some((span) => at >= span.start && at < span.end)) return d;
  const { found, ...rest } = d;
  return { ...rest, message: rest.message.replaceAll(found, '(sensitive)') };
}

/** User metadata that fits alone but not once `sync` adds the ownership marker (scope and key). */
function checkMetadataWithMarker(
  declared: readonly DeclaredObject[],
  resolved: ReadonlyMap<DeclaredObject, Record<string, unknown>>,
  scope: string,
  out: FileFinding[],
): void {
  for (const o of declared) {
    if (!('metadata' in o.descriptor.fields) || typeof o.values.metadata !== 'string') continue;
    // A live object's sticky protection is unknown offline: only `protect: true` as written counts.
    const state = { protect: o.protect === true };
    const marked = markedMetadata(o.descriptor, o.key, resolved.get(o) ?? o.values, scope, state);
    if (marked.tooLong === undefined || !marked.userFits) continue;
    out.push({
      ...o.place(['metadata']),
      message: marked.tooLong,
      hint: `acctsync adds an ownership marker (scope ${scope}, key ${o.key}) to every object's metadata`,
    });
  }
}

/** Files may repeat the scope; they may not disagree about it. */
function checkScopes(scopes: ReadonlyArray<{ source: SourceFile; scope: string }>, out: FileFinding[]): void {
  const first = scopes[0];
  for (const s of scopes.slice(1)) {
    if (first && s.scope !== first.scope) {
      out.push({
        source: s.source,
        path: ['scope'],
        message: `scope ${s.scope} differs from scope ${first.scope} set in ${first.source.file}`,
        hint: 'all files of one desired state share one scope',
      });
    }
  }
}
