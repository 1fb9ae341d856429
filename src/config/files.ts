/** Which files make up the desired state: the paths given, directories expanded, in sorted order. */
import { existsSync, Stats } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { compare } from '../compare.js';
import { isSystemError, systemUserError } from '../errors.js';
import { checkInRoot, filesRootOf, type FilesRoot } from './files-root.js';

/** Used when no path is given: the directory `account/` if it exists, else `acctsync.yaml`. */
export function defaultPaths(cwd: string): string[] {
  return existsSync(join(cwd, 'account')) ? ['account'] : ['acctsync.yaml'];
}

export interface ExpandedFile {
  /** The name diagnostics use: relative to the working directory when below it. */
  readonly file: string;
  readonly absolute: string;
}

/** A symlink below a config directory whose target the root does not hold. */
export interface RefusedLink {
  readonly file: string;
  readonly reason: 'outside' | 'git';
}

export type ExpandResult = {
  readonly files: ExpandedFile[];
  /** Where each of `files` really is, symlinks resolved, in the same order. */
  readonly reals: string[];
  readonly missing: string[];
  readonly refused: RefusedLink[];
};

const yamlFile = /\.ya?ml$/i;

/**
 * What below a config directory never holds config: hidden files and directories (`.git`,
 * `.github` with its workflow YAML, `.gitlab-ci.yml`, `.acctsync` with the emulator's state) and
 * `node_modules`. A file or directory named on the command line is read whatever its name.
 */
export function isSkippedDirectory(name: string): boolean {
  return isHidden(name) || name === 'node_modules';
}

function isHidden(name: string): boolean {
  return name.startsWith('.');
}

/** What a walk below the config directories collects. */
interface Walk {
  readonly root: FilesRoot;
  readonly found: string[];
  readonly refused: string[];
  readonly gitRefused: string[];
  /** Real paths of the directories walked: a symlink cycle ends there. */
  readonly visited: Set<string>;
}

/**
 * `*.yaml` and `*.yml` below `dir`, following symlinked files and directories whose targets the
 * root holds: a Kubernetes ConfigMap volume is nothing but such links (`acctsync.yaml ->
 * ..data/acctsync.yaml`), and its `..`-prefixed entries are hidden, so each file is read once.
 */
async function walkBelow(dir: string, walk: Walk): Promise<void> {
  const real = await realpath(dir).catch(() => dir);
  if (walk.visited.has(real)) return;
  walk.visited.add(real);
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    throw isSystemError(err) ? systemUserError(`read the config directory ${dir}`, err) : err;
  });
  for (const e of entries) {
    const path = join(dir, e.name);
    if (isSkippedDirectory(e.name)) continue;
    let kind: 'directory' | 'file' | undefined = e.isDirectory()
      ? 'directory'
      : e.isFile()
        ? 'file'
        : undefined;
    if (e.isSymbolicLink()) {
      const target = await stat(path).catch(() => undefined);
      kind = target?.isDirectory() ? 'directory' : target?.isFile() ? 'file' : undefined;
      if (kind === 'file' && !yamlFile.test(e.name)) continue;
      const check = kind === undefined ? undefined : checkInRoot(walk.root, path);
      if (check !== undefined && !check.ok) {
        (check.reason === 'git' ? walk.gitRefused : walk.refused).push(path);
        continue;
      }
    }
    if (kind === 'directory') await walkBelow(path, walk);
    else if (kind === 'file' && yamlFile.test(e.name)) walk.found.push(path);
  }
}

function displayName(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/**
 * Expands `paths` (files or directories) into the YAML files to read. Symlinks below a directory
 * are followed when `root` (by default the paths' own) holds their targets; a file reached twice
 * (two links to one target) is read once.
 */
export async function expandPaths(
  paths: readonly string[],
  cwd: string,
  root: FilesRoot = filesRootOf(paths, cwd, {}),
): Promise<ExpandResult> {
  const files: ExpandedFile[] = [];
  const reals: string[] = [];
  const missing: string[] = [];
  const refused: RefusedLink[] = [];
  const seen = new Set<string>();
  for (const p of paths) {
    const absolute = resolve(cwd, p);
    const info = await stat(absolute).catch((err: unknown) =>
      (err as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : err,
    );
    if (!info) {
      missing.push(p);
      continue;
    }
    // A path that is there but cannot be looked at (permissions, a file on the path, a symlink loop)
    // is read as a file, so that the reader reports why it cannot be read.
    const walk: Walk = { root, found: [], refused: [], gitRefused: [], visited: new Set() };
    if (info instanceof Stats && info.isDirectory()) await walkBelow(absolute, walk);
    else walk.found.push(absolute);
    for (const f of walk.found.sort(compare)) {
      const real = await realpath(f).catch(() => f);
      if (seen.has(real)) continue;
      seen.add(real);
      files.push({ file: displayName(f, cwd), absolute: f });
      reals.push(real);
    }
    refused.push(...walk.refused.map((f) => ({ file: displayName(f, cwd), reason: 'outside' as const })));
    refused.push(...walk.gitRefused.map((f) => ({ file: displayName(f, cwd), reason: 'git' as const })));
  }
  return { files, reals, missing, refused };
}
