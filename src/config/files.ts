/** Which files make up the desired state: the paths given, directories expanded, in sorted order. */
import { existsSync, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { isSystemError, systemUserError } from '../errors.js';

/** Used when no path is given: the directory `account/` if it exists, else `acctsync.yaml`. */
export function defaultPaths(cwd: string): string[] {
  return existsSync(join(cwd, 'account')) ? ['account'] : ['acctsync.yaml'];
}

export interface ExpandedFile {
  /** The name diagnostics use: relative to the working directory when below it. */
  readonly file: string;
  readonly absolute: string;
}

export type ExpandResult = { readonly files: ExpandedFile[]; readonly missing: string[] };

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

/** `*.yaml` and `*.yml` below `dir`, sorted by path so that merge order never depends on the disk. */
async function yamlFilesBelow(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
    throw isSystemError(err) ? systemUserError(`read the config directory ${dir}`, err) : err;
  });
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory() && !isSkippedDirectory(e.name)) found.push(...(await yamlFilesBelow(path)));
    else if (e.isFile() && yamlFile.test(e.name) && !isHidden(e.name)) found.push(path);
  }
  return found.sort();
}

export function displayName(absolute: string, cwd: string): string {
  const rel = relative(cwd, absolute);
  return rel.startsWith('..') || isAbsolute(rel) ? absolute : rel;
}

/** Expands `paths` (files or directories) into the YAML files to read. */
export async function expandPaths(paths: readonly string[], cwd: string): Promise<ExpandResult> {
  const files: ExpandedFile[] = [];
  const missing: string[] = [];
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
    const found = info instanceof Stats && info.isDirectory() ? await yamlFilesBelow(absolute) : [absolute];
    for (const f of found) {
      if (seen.has(f)) continue;
      seen.add(f);
      files.push({ file: displayName(f, cwd), absolute: f });
    }
  }
  return { files, missing };
}
