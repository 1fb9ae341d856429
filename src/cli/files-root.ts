/**
 * `--files-root DIR`: a directory a config may read below besides its own root (the git work tree
 * that holds it), for `{file:}` values and symlinks: a secrets volume mounted beside the config in
 * Kubernetes. The flag adds to `ACCTSYNC_FILES_ROOT`: the directories are handed to every load of
 * the config (plan, the daemon's reconciles).
 */
import { resolve } from 'node:path';
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

/** The directories `--files-root` gives, absolute. */
export function filesRootFrom(values: { readonly 'files-root'?: readonly string[] | undefined }): string[] {
  return (values['files-root'] ?? []).map((dir) => resolve(dir));
}
