/**
 * Which revision of the config a set of paths leads to: where each path and each file found below
 * it really is, symlinks resolved. A ConfigMap volume swaps its `..data` link and git-sync flips its
 * worktree link at any moment; a load that began on one revision and ended on another read a mix
 * of the two, and is read again.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expandPaths } from './files.js';
import type { FilesRoot } from './files-root.js';

const realOf = (path: string): Promise<string> => realpath(path).catch(() => `${path} (unresolved)`);

/** The real location of each path and of each YAML file below it, as one comparable string. */
export async function revisionOf(paths: readonly string[], cwd: string, root: FilesRoot): Promise<string> {
  const { files } = await expandPaths(paths, cwd, root);
  const reals = await Promise.all([
    ...paths.map((p) => realOf(resolve(cwd, p))),
    ...files.map((f) => realOf(f.absolute)),
  ]);
  return reals.join('\n');
}
