/**
 * The loader: files → parsed documents → structural check → objects (sources resolved) → rule
 * check → cross-object checks → the desired state. Every stage collects findings; the result is
 * either the state (with warnings) or every error, each placed at its file, line and column.
 */
import type { DesiredMove, DesiredObject, DesiredState, GuardSettings } from '../resources/index.js';
import { checkAcrossObjects, type CheckedObjects } from './cross-object-checks.js';
import { fileDiagnostic, type Diagnostic } from './diagnostic.js';
import type { EnvironmentSettings } from './environments.js';
import { defaultPaths, type ExpandedFile, type ExpandResult, type RefusedLink } from './files.js';
import { describeRoot, filesRootOf, type FilesRoot } from './files-root.js';
import { environmentLayers, type Layers } from './layers.js';
import { LoadReport } from './load-report.js';
import { checkMoves } from './moves.js';
import type { ExternalContext } from './external-value.js';
import { declaredObjects, type DeclareContext, type DeclaredObject } from './objects.js';
import { conflictFinding, missingTargets, overlayOnlySections } from './overlay-findings.js';
import { checkStructure } from './schema-check.js';
import { schemaCommentFindings } from './schema-comment.js';
import { expandRevision } from './revision.js';
import { literalSecrets, withoutSecretFound, type SecretSpans } from './secret-spans.js';
import { checkObject } from './semantic.js';
import { readSources } from './source-reader.js';
import { filesScope, scopeSetting, type ScopeSetting } from './scopes.js';
import { guardSettings } from './guards.js';
import { locate, type FileFinding, type SourceFile } from './source.js';
import { withoutWithheld, type Withheld } from './withheld.js';
import { isPlainObject } from '../plain-object.js';
import { resolve } from 'node:path';

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
      /** With `uncheckedUnavailable`: the `{env}`/`{file}` values not there, left unchecked. */
      readonly unchecked: readonly string[];
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

interface LoadOptions {
  /**
   * Where `{env}` values come from, and `ACCTSYNC_FILES_ROOT` (directories `{file}` values and
   * symlinks may also read below); defaults to `process.env`.
   */
  readonly env?: NodeJS.ProcessEnv;
  /** Base of relative paths and of the file names in diagnostics; defaults to `process.cwd()`. */
  readonly cwd?: string;
  /** The environment to load, for a config that declares environments. */
  readonly environment?: string;
  /**
   * An `{env}` variable not set or a `{file}` not there is left unchecked (listed in `unchecked`)
   * instead of an error: what `validate` needs where the secrets are not. The state such a load
   * returns holds the sources in place of those values: never plan or apply it.
   */
  readonly uncheckedUnavailable?: boolean;
  /** `--files-root`: directories `{file}` values and symlinks may also read below. */
  readonly filesRoot?: readonly string[];
}

/**
 * Loads the desired state from `paths` (files or directories; default `account/` or
 * `acctsync.yaml`). Never throws for bad input: problems come back as diagnostics.
 */
export async function loadDesiredState(paths: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const given = paths.length > 0 ? paths : defaultPaths(cwd);
  const root = filesRootOf(given, cwd, options.env ?? process.env, options.filesRoot ?? []);
  let current = await expandRevision(given, cwd, root);
  for (let attempt = 1; ; attempt++) {
    const result = await loadRevision(paths, current.expanded, root, options);
    // Files swapped under the load (a ConfigMap update, a git-sync flip): read the new revision whole.
    const next = await expandRevision(given, cwd, root);
    if (attempt === maxRevisionReads || next.revision === current.revision) return result;
    current = next;
  }
}

/**
 * A `--policy` rules file (`rules:` at its top, docs/traffic-policy.md) met below a config
 * directory: `validate .` at a repository's root reads policies/ beside account/, and such a file
 * is not config. Named on its own, it is read as config and its problems are shown.
 */
function isPolicyRules(source: SourceFile): boolean {
  return isPlainObject(source.value) && Array.isArray(source.value.rules);
}

/** Reads of a config whose files keep being swapped, before the last one is taken as it is. */
const maxRevisionReads = 5;

async function loadRevision(
  paths: readonly string[],
  expanded: ExpandResult,
  root: FilesRoot,
  options: LoadOptions,
): Promise<LoadResult> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const { files, missing, refused } = expanded;
  const names = files.map((f) => f.file);
  const report = new LoadReport();
  report.add(missingFiles(paths, files, missing));
  report.add(refusedLinks(refused, root));
  const read = await readSources(files);
  report.add(read.findings);
  const given = new Set((paths.length > 0 ? paths : defaultPaths(cwd)).map((p) => resolve(cwd, p)));
  const config = read.sources.filter((s) => given.has(s.absolute) || !isPolicyRules(s));
  const layers = await environmentLayers(config, options.environment, cwd);
  report.add(layers.overlaysRead.findings);
  report.addFileFindings(layers.findings);
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
  const { objects, scopes } = declareObjects(
    sources,
    layers,
    {
      env,
      filesRoot: root,
      ...(options.uncheckedUnavailable === true ? { uncheckedUnavailable: true } : {}),
    },
    report,
  );
  const checked = checkAcrossObjects(objects, scopes, [...read.unread, ...layers.overlaysRead.unread]);
  report.addFileFindings(checked.findings);
  report.add(checked.unreadNotes);
  const moves = declaredMoves(sources, checked, report);
  // From every declared object, duplicates too: a duplicate's secret is in its file all the same.
  // Spans serve only to render diagnostics; finding them re-parses each file's document tree.
  const secretSpans = report.diagnostics.length === 0 ? {} : literalSecrets(objects);

  const withheld: Withheld[] = [];
  for (const o of objects) if (o.withheld.size > 0) withheld.push(...o.withheld.values());
  const shown = report.diagnostics.map((d) =>
    withoutWithheld(withoutSecretFound(d, secretSpans, sources), withheld),
  );
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
    state: desiredState(checked, layers.settings?.scope ?? filesScope(scopes), moves, guardSettings(sources)),
    warnings,
    files: sources.map((o) => o.file),
    secretSpans,
    ...(layers.settings === undefined ? {} : { environment: layers.settings }),
    environments: layers.environments,
    unchecked: [...report.unchecked],
  };
}

/** Paths given that do not exist, or no YAML file found at all. */
function missingFiles(
  paths: readonly string[],
  files: readonly ExpandedFile[],
  missing: readonly string[],
): Diagnostic[] {
  const diagnostics = missing.map((p) =>
    fileDiagnostic(p, `${p} does not exist`, { hint: 'give a YAML file or a directory of them' }),
  );
  if (files.length === 0 && missing.length === 0)
    diagnostics.push(fileDiagnostic(paths.join(' '), 'no *.yaml or *.yml files found'));
  return diagnostics;
}

/** Symlinks below a config directory whose targets lie outside the root, or inside `.git/`. */
function refusedLinks(refused: readonly RefusedLink[], root: FilesRoot): Diagnostic[] {
  return refused.map(({ file, reason }) =>
    fileDiagnostic(
      file,
      reason === 'git'
        ? `${file} is a symbolic link into .git/, which a config may not read`
        : `${file} is a symbolic link to a target outside the config's root (${describeRoot(root)})`,
      {
        hint: 'a config reads only inside the git work tree that holds it (or the config directory given); --files-root DIR adds a directory on purpose',
      },
    ),
  );
}

/** Each file on its own: its structure, and no overlay sections in a base file. */
function checkFiles(sources: readonly SourceFile[], base: readonly SourceFile[], report: LoadReport): void {
  for (const source of sources) {
    report.addFindings(source, checkStructure(source.value));
    report.addPlaced(source.file, schemaCommentFindings(source));
  }
  for (const source of base) report.addFileFindings(overlayOnlySections(source));
}

/** The objects the files declare with the overlays applied, each checked against its kind's rules. */
function declareObjects(
  sources: readonly SourceFile[],
  layers: Layers,
  external: ExternalContext,
  report: LoadReport,
): { objects: DeclaredObject[]; scopes: ScopeSetting[] } {
  const findings: FileFinding[] = [];
  const ctx: DeclareContext = {
    ...external,
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

/** The `moved:` entries of every file, checked against the entries (docs/config.md "Renaming an entry"). */
function declaredMoves(
  sources: readonly SourceFile[],
  checked: CheckedObjects,
  report: LoadReport,
): DesiredMove[] {
  const findings: FileFinding[] = [];
  const moves = checkMoves(sources, new Set(checked.objects.map((o) => o.key)), findings);
  report.addFileFindings(findings);
  return moves;
}

function desiredState(
  { objects, resolved }: CheckedObjects,
  scope: string,
  moves: readonly DesiredMove[],
  guards: GuardSettings | undefined,
): DesiredState {
  const desired = objects.map((o): DesiredObject => {
    // Member by member, in this order, each optional one only where set: no spread per object.
    const d: { -readonly [K in keyof DesiredObject]: DesiredObject[K] } = {
      kind: o.descriptor.kind,
      key: o.key,
      name: o.name,
    } as DesiredObject;
    if (o.parentKey !== undefined) d.parentKey = o.parentKey;
    if (o.pin !== undefined) d.pin = o.pin;
    d.fields = resolved.get(o) ?? o.values;
    d.sensitive = o.sensitive;
    const { line, column } = locate(o.source, o.entryPath, true);
    d.source = { file: o.source.file, line, column };
    if (o.protect !== undefined) d.protect = o.protect;
    if (o.ignore !== undefined) d.ignore = o.ignore.map((p) => p.split('.'));
    if (o.observe !== undefined) d.observe = o.observe;
    return d;
  });
  return {
    scope,
    objects: desired,
    ...(moves.length > 0 ? { moves } : {}),
    ...(guards === undefined ? {} : { guards }),
  };
}
