/**
 * The loader: files → parsed documents → structural check → objects (sources resolved) → rule
 * check → cross-object checks → the desired state. Every stage collects findings; the result is
 * either the state (with warnings) or every error, each placed at its file, line and column.
 */
import type { DesiredObject, DesiredState, GuardSettings } from '../resources/index.js';
import { checkAcrossObjects, type CheckedObjects } from './cross-object-checks.js';
import type { Diagnostic } from './diagnostic.js';
import type { EnvironmentSettings } from './environments.js';
import { defaultPaths, expandPaths, type ExpandedFile } from './files.js';
import { environmentLayers, type Layers } from './layers.js';
import { LoadReport } from './load-report.js';
import { declaredObjects, type DeclareContext, type DeclaredObject } from './objects.js';
import { conflictFinding, missingTargets, overlayOnlySections } from './overlay-findings.js';
import { checkStructure } from './schema-check.js';
import { literalSecrets, withoutSecretFound, type SecretSpans } from './secret-spans.js';
import { checkObject } from './semantic.js';
import { SourceReader } from './source-reader.js';
import { filesScope, scopeSetting, type ScopeSetting } from './scopes.js';
import { guardSettings } from './guards.js';
import { locate, type FileFinding, type SourceFile } from './source.js';

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

/**
 * Loads the desired state from `paths` (files or directories; default `account/` or
 * `acctsync.yaml`). Never throws for bad input: problems come back as diagnostics.
 */
export async function loadDesiredState(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const { files, missing } = await expandPaths(paths.length > 0 ? paths : defaultPaths(cwd), cwd);
  const names = files.map((f) => f.file);
  const report = new LoadReport();
  report.add(missingFiles(paths, files, missing));
  const reader = new SourceReader(report);
  const given = await reader.read(files);
  const layers = await environmentLayers(
    given,
    options.environment,
    cwd,
    reader.read,
    report.addFileFindings,
  );
  if (layers.needsEnvironment) {
    return {
      ok: false,
      diagnostics: [layers.needsEnvironment],
      files: names,
      secretSpans: {},
      environments: layers.environments,
      needsEnvironment: true,
    };
  }
  const sources = [...layers.base, ...layers.overlays];
  checkFiles(sources, layers.base, report);
  const { objects, scopes } = declareObjects(sources, layers, options.env ?? process.env, report);
  // Before duplicates are dropped: a duplicate's secret is in its file all the same.
  const secretSpans = literalSecrets(objects);
  const checked = checkAcrossObjects(objects, scopes, reader.unread, report);

  const shown = report.diagnostics.map((d) => withoutSecretFound(d, secretSpans, sources));
  const errors = shown.filter((d) => d.severity === 'error');
  const warnings = shown.filter((d) => d.severity === 'warning');
  if (errors.length > 0) {
    return {
      ok: false,
      diagnostics: [...errors, ...warnings],
      files: names,
      secretSpans,
      environments: layers.environments,
    };
  }
  return {
    ok: true,
    state: desiredState(checked, layers.settings?.scope ?? filesScope(scopes), guardSettings(sources)),
    warnings,
    files: sources.map((o) => o.file),
    secretSpans,
    ...(layers.settings === undefined ? {} : { environment: layers.settings }),
    environments: layers.environments,
  };
}

/** Paths given that do not exist, or no YAML file found at all. */
function missingFiles(
  paths: readonly string[],
  files: readonly ExpandedFile[],
  missing: readonly string[],
): Diagnostic[] {
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
  return diagnostics;
}

/** Each file on its own: its structure, and no overlay sections in a base file. */
function checkFiles(sources: readonly SourceFile[], base: readonly SourceFile[], report: LoadReport): void {
  for (const source of sources) report.addFindings(source, checkStructure(source.value));
  for (const source of base) report.addFileFindings(overlayOnlySections(source));
}

/** The objects the files declare with the overlays applied, each checked against its kind's rules. */
function declareObjects(
  sources: readonly SourceFile[],
  layers: Layers,
  env: NodeJS.ProcessEnv,
  report: LoadReport,
): { objects: DeclaredObject[]; scopes: ScopeSetting[] } {
  const findings: FileFinding[] = [];
  const ctx: DeclareContext = {
    env,
    values: layers.values,
    patches: layers.patches,
    drops: new Set(layers.drops.map((d) => d.key)),
    findings,
    onConflict: (c) => findings.push(conflictFinding(c)),
  };
  const objects = sources.flatMap((source) => declaredObjects(source, ctx));
  const scopes = sources.flatMap((source) => scopeSetting(source) ?? []);
  report.addFileFindings(findings);
  report.addFileFindings(missingTargets(sources, layers));
  for (const o of objects) report.addFileFindings(checkObject(o));
  return { objects, scopes };
}

function desiredState(
  { objects, resolved }: CheckedObjects,
  scope: string,
  guards: GuardSettings | undefined,
): DesiredState {
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
  return { scope, objects: desired, ...(guards === undefined ? {} : { guards }) };
}
