/**
 * Where an export writes: a file it wrote before may be replaced, any other file is the user's
 * (a hand-written acctsync.yaml or overlay) and is replaced only with `--force`. Plain `export` and
 * `export --env` refuse the same way.
 */
import { readFile } from 'node:fs/promises';
import { isSystemError, UserError } from '../errors.js';
import { writtenByExport } from '../export/index.js';
import { inert } from '../inert.js';

/** What is at `path` now: nothing, a file an export wrote (its header says so), or another file. */
async function occupant(path: string): Promise<'none' | 'exported' | 'other'> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (isSystemError(err) && err.code === 'ENOENT') return 'none';
    throw err;
  }
  return writtenByExport(text) ? 'exported' : 'other';
}

/** Refuses, before writing anything, to replace or remove a file no export wrote, unless `force`. */
export async function refuseForeign(paths: readonly string[], force: boolean): Promise<void> {
  if (force) return;
  const foreign: string[] = [];
  for (const path of paths) if ((await occupant(path)) === 'other') foreign.push(path);
  if (foreign.length === 0) return;
  throw new UserError(
    `export: refusing to overwrite ${foreign.map(inert).join(', ')}: not written by acctsync export`,
    {
      details: [
        'Nothing was written. Export into another directory or file and compare, or pass --force to replace it.',
      ],
    },
  );
}
