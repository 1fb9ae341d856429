/**
 * A saved plan of one update, as a user makes it: the examples (with the files they read) copied
 * into a fresh directory, synced, one edge's description edited, `plan --out` written. The built
 * CLI runs as a user would, against the account whose variables `env` holds.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `acctsync ...args` (the built CLI) with only PATH and `env` in its environment. */
export function cliWith(env: Readonly<Record<string, string>>): (args: string[]) => Promise<CliRun> {
  return (args) =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        ['dist/cli/main.js', ...args],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 1 << 26 },
        (err, stdout, stderr) =>
          resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
    });
}

export interface SavedUpdate {
  /** The config directory, and the `--files-root` its files need. */
  readonly config: string;
  readonly root: readonly string[];
  /** The saved plan's file. */
  readonly saved: string;
}

/** Syncs a copy of the examples, edits the web edge's description and saves the plan of it. */
export async function saveUpdatePlan(cli: (args: string[]) => Promise<CliRun>): Promise<SavedUpdate> {
  const dir = mkdtempSync(join(tmpdir(), 'acctsync-saved-update-'));
  for (const part of ['account', 'pki', 'saml', 'secrets'])
    cpSync(join('examples', part), join(dir, part), { recursive: true });
  const config = join(dir, 'account');
  const root = ['--files-root', dir];
  const synced = await cli(['sync', config, ...root]);
  expect(synced.status, synced.stderr).toBe(0);
  const edges = join(config, 'edges.yaml');
  writeFileSync(edges, readFileSync(edges, 'utf8').replace('The public web site', 'The web site'));
  const saved = join(dir, 'plan.json');
  const planned = await cli(['plan', config, ...root, '--out', saved]);
  expect(planned.status, planned.stderr).toBe(0);
  return { config, root, saved };
}
