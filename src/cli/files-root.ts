/**
 * `--files-root DIR`: a directory a config may read below besides its own root (the git work tree
 * that holds it), for `{file:}` values and symlinks: a secrets volume mounted beside the config in
 * Kubernetes. The flag adds to `ACCTSYNC_FILES_ROOT`, which the loader reads, so that every stage
 * that loads the config (plan, the daemon's reconciles) sees the same root.
 */
import { delimiter, resolve } from 'node:path';
import { filesRootVariable } from '../config/files-root.js';
import type { FlagTable } from './flags.js';

export const filesRootOptions = {
  'files-root': {
    type: 'string',
    multiple: true,
    value: 'DIR',
    help: `a directory {file:} values and symlinks may read besides the git work\ntree holding the config (repeatable; default: ${filesRootVariable})`,
  },
} as const satisfies FlagTable;

/** Adds the directories given to `env`'s `ACCTSYNC_FILES_ROOT`, absolute. */
export function useFilesRoot(
  values: { readonly 'files-root'?: readonly string[] | undefined },
  env: NodeJS.ProcessEnv,
): void {
  const given = (values['files-root'] ?? []).map((dir) => resolve(dir));
  if (given.length === 0) return;
  env[filesRootVariable] = [env[filesRootVariable], ...given]
    .filter((d) => d !== undefined && d !== '')
    .join(delimiter);
}
