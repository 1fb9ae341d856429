/**
 * `acctsync plan` reads the account while its config loads (docs/performance.md, "floor"). What the
 * user sees must not show it: a config that fails prints its own error and nothing of the read (no
 * retry report, no API error), whatever the API does meanwhile; a config that loads plans as ever.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closedPortUrl } from '../api/server.js';
import { runCli, type CliResult } from '../support/cli.js';
import { useAccount } from '../support/use-account.js';

const account = useAccount();

/** Enough policies that the load outlasts the first failed requests and their retries. */
const policies = 2_000;

function config(broken: boolean): string {
  const entries = Array.from({ length: policies }, (_, i) => `  p${i}:\n    description: policy ${i}\n`);
  const last = broken ? '  broken:\n    description: 3\n' : '';
  return `version: 1\nscope: early\nip_policies:\n${entries.join('')}${last}`;
}

/** The line of the broken entry's `description: 3`. */
const brokenLine = 3 + 2 * policies + 2;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-early-read-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeConfig(broken: boolean): Promise<string> {
  const file = join(dir, 'policies.yaml');
  await writeFile(file, config(broken));
  return file;
}

function expectOnlyTheConfigError(run: CliResult): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toBe('');
  const lines = run.stderr.split('\n');
  expect(lines[0]).toBe('error: the desired state is invalid: 1 error');
  expect(run.stderr).toContain(`\npolicies.yaml:${brokenLine}:18: error: expected string`);
  expect(lines.filter((line) => line.startsWith('error:'))).toHaveLength(1);
  expect(run.stderr).not.toMatch(/acctsync: |retrying|GET |ECONNREFUSED|401/);
}

describe('acctsync plan with a config that does not load', () => {
  it('prints the config error alone when the API is unreachable', async () => {
    const file = await writeConfig(true);
    const run = await runCli(['plan', file, '--api-url', await closedPortUrl()], {
      cwd: dir,
      env: { SVC_API_KEY: 'early-key' },
    });
    expectOnlyTheConfigError(run);
  });

  it('prints the config error alone when the API answers, and changes nothing', async () => {
    const file = await writeConfig(true);
    const run = await runCli(['plan', file], { cwd: dir, env: account.env });
    expectOnlyTheConfigError(run);
    expect(account.answered((r) => r.method !== 'GET')).toBe(0);
  });

  it('prints the config error alone when the API refuses the key', async () => {
    const file = await writeConfig(true);
    const run = await runCli(['plan', file], { cwd: dir, env: { ...account.env, SVC_API_KEY: 'wrong' } });
    expectOnlyTheConfigError(run);
  });
});

describe('acctsync plan with a config that loads', () => {
  it('plans against the account read meanwhile', async () => {
    const file = await writeConfig(false);
    const run = await runCli(['plan', file, '--output', 'json'], { cwd: dir, env: account.env });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const plan = JSON.parse(run.stdout) as { summary: { create: number } };
    expect(plan.summary.create).toBe(policies);
  });

  it('reports a refused key once, as the plan error', async () => {
    const file = await writeConfig(false);
    const run = await runCli(['plan', file], { cwd: dir, env: { ...account.env, SVC_API_KEY: 'wrong' } });
    expect(run.code, run.stderr).toBe(1);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errors, run.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(/^error: GET \/\S+: 401/);
    expect(run.stderr).not.toContain('wrong');
  });
});
