/**
 * Which revision of the config a set of paths leads to: where each path and each file found below
 * it really is, symlinks resolved. A ConfigMap volume swaps its `..data` link and git-sync flips its
 * worktree link at any moment; a load that began on one revision and ended on another read a mix
 * of the two, and is read again.
 */
import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expandPaths, type ExpandResult } from './files.js';
import type { FilesRoot } from './files-root.js';

const realOf = (path: string): Promise<string> => realpath(path).catch(() => `${path} (unresolved)`);

interface ExpandedRevision {
  readonly expanded: ExpandResult;
  /** The real location of each path and of each YAML file below it, as one comparable string. */
  readonly revision: string;
}

/**
 * Expands `paths` into their files and says which revision that expansion is of. The paths' own
 * links are resolved first: a flip after that shows in the next revision, never in this one.
 */
export async function expandRevision(
  paths: readonly string[],
  cwd: string,
  root: FilesRoot,
): Promise<ExpandedRevision> {
  const pathReals = await Promise.all(paths.map((p) => realOf(resolve(cwd, p))));
  const expanded = await expandPaths(paths, cwd, root);
  return { expanded, revision: [...pathReals, ...expanded.reals].join('\n') };
}
