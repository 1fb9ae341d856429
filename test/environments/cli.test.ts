/**
 * One repository, two accounts: examples/environments planned and synced through the CLI against
 * two emulators over HTTP, each environment reaching its own through its own variables.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { configRepository, readWorkflow, runJob, type Comment } from '../cli/support/github-actions.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const main = join(repoRoot, 'dist/cli/main.js');

let dir: string;
let staging: RunningEmulator;
let production: RunningEmulator;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-envs-cli-'));
  cpSync(join(repoRoot, 'examples/environments'), join(dir, 'config'), { recursive: true });
  staging = await startEmulator();
  production = await startEmulator();
});
afterEach(async () => {
  await staging.close();
  await production.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI as CI runs it, with both environments' accounts in its variables; asynchronous, as the emulators answer from this process. */
function acctsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const {
    SVC_API_URL: _u,
    SVC_API_KEY: _k,
    ACCTSYNC_ENV: _e,
    GITHUB_STEP_SUMMARY: _s,
    ...base
  } = process.env;
  const child = spawn(process.execPath, [main, ...args], {
    cwd: dir,
    env: {
      ...base,
      STAGING_SVC_API_URL: staging.url,
      STAGING_SVC_API_KEY: staging.token,
      PRODUCTION_SVC_API_URL: production.url,
      PRODUCTION_SVC_API_KEY: production.token,
    },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

function edit(file: string, change: (text: string) => string): void {
  const path = join(dir, 'config', file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

interface JsonReport {
  environments: Array<{
    name: string;
    plan: { summary: Record<string, number>; operations: Array<{ id: string }> };
  }>;
}

async function planAll(): Promise<JsonReport> {
  const run = await acctsync(['plan', 'config', '--all-envs', '--output', 'json']);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as JsonReport;
}

async function syncBoth(): Promise<void> {
  for (const env of ['staging', 'production']) {
    const run = await acctsync(['sync', 'config', '--env', env]);
    expect(run.status, run.stderr).toBe(0);
  }
}

describe('environments through the CLI', { timeout: 180_000 }, () => {
  it('each environment syncs into its own account and converges', async () => {
    await syncBoth();
    const ids = async (e: RunningEmulator, path: string) =>
      (
        (await (
          await fetch(`${e.url}${path}`, { headers: { Authorization: `Bearer ${e.token}` } })
        ).json()) as {
          ip_policies: unknown[];
        }
      ).ip_policies.length;
    expect(await ids(staging, '/ip_policies')).toBe(1);
    expect(await ids(production, '/ip_policies')).toBe(3);
    const again = await acctsync(['plan', 'config', '--all-envs', '--detailed-exitcode']);
    expect(again.status, again.stdout + again.stderr).toBe(0);
  });

  it('a change to the base plans in both environments; a production patch only in production', async () => {
    await syncBoth();
    edit('base/network.yaml', (t) =>
      t.replace('Dashboard only from the office', 'Dashboard from the office only'),
    );
    const base = await planAll();
    expect(base.environments.map((e) => [e.name, e.plan.summary.update])).toEqual([
      ['staging', 1],
      ['production', 1],
    ]);
    await syncBoth();

    edit('production/network.yaml', (t) =>
      t.replace(
        'patch:\n',
        'patch:\n  backends:\n    maintenance:\n      http_response:\n        status_code: 502\n',
      ),
    );
    const prodOnly = await planAll();
    expect(prodOnly.environments.map((e) => [e.name, e.plan.operations.length])).toEqual([
      ['staging', 0],
      ['production', 1],
    ]);
    expect(prodOnly.environments[1]!.plan.operations[0]!.id).toBe('update backends/maintenance');
  });

  it('plan --all-envs --output markdown reports both with exact counts, under the comment limit', async () => {
    const run = await acctsync([
      'plan',
      'config',
      '--all-envs',
      '--output',
      'markdown',
      '--detailed-exitcode',
    ]);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('## acctsync plan: 2 environments');
    expect(run.stdout).toContain('| `staging` | 5 | 0 | 0 | 0 | 0 |');
    expect(run.stdout).toContain('| `production` | 10 | 0 | 0 | 0 | 0 |');
    expect(run.stdout).toContain('<summary>Environment <code>production</code></summary>');
    expect(run.stdout.length).toBeLessThan(65_536);
  });

  it('without --env a config with environments names them; apply re-plans the environment its plan was made for', async () => {
    const bare = await acctsync(['plan', 'config']);
    expect(bare.status).toBe(1);
    expect(bare.stderr).toContain('this config declares environments (staging, production): name one');
    const saved = await acctsync(['plan', 'config', '--env', 'production', '--out', 'plan.json']);
    expect(saved.status, saved.stderr).toBe(0);
    const applied = await acctsync(['apply', 'plan.json']);
    expect(applied.status, applied.stderr).toBe(0);
    const after = await planAll();
    expect(after.environments.map((e) => [e.name, e.plan.operations.length])).toEqual([
      ['staging', 5],
      ['production', 0],
    ]);
  });
});

describe('examples/ci/.github/workflows/acctsync-environments.yml', { timeout: 240_000 }, () => {
  const workflow = readWorkflow('examples/ci/.github/workflows/acctsync-environments.yml');
  const settings = () => ({
    STAGING_SVC_API_URL: staging.url,
    STAGING_SVC_API_KEY: staging.token,
    PRODUCTION_SVC_API_URL: production.url,
    PRODUCTION_SVC_API_KEY: production.token,
  });

  it('syncs each environment from its own job, one at a time, on its own branch', () => {
    expect(workflow.jobs['sync-staging']!.concurrency).toEqual({
      group: 'acctsync-sync-staging',
      'cancel-in-progress': false,
    });
    expect(workflow.jobs['sync-production']!.concurrency).toEqual({
      group: 'acctsync-sync-production',
      'cancel-in-progress': false,
    });
    expect(workflow.jobs['sync-staging']!.if).toContain('refs/heads/main');
    expect(workflow.jobs['sync-production']!.if).toContain('refs/heads/release');
  });

  it('a pull request gets one comment planning every environment; each sync job converges its own account', async () => {
    configRepository(dir);
    const comments: Comment[] = [];
    const plan = await runJob(workflow, 'plan', dir, settings(), comments);
    expect(plan.failedStep).toBeUndefined();
    expect(plan.outputs.plan).toEqual({ exitcode: '2' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('| `staging` | 5 | 0 | 0 | 0 | 0 |');
    expect(comments[0]!.body).toContain('| `production` | 10 | 0 | 0 | 0 | 0 |');

    expect((await runJob(workflow, 'sync-staging', dir, settings())).failedStep).toBeUndefined();
    const afterStaging = await runJob(workflow, 'plan', dir, settings(), comments);
    expect(afterStaging.outputs.plan).toEqual({ exitcode: '2' });
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain('| `staging` | 0 | 0 | 0 | 0 | 0 |');
    expect(comments[0]!.body).toContain('| `production` | 10 | 0 | 0 | 0 | 0 |');

    expect((await runJob(workflow, 'sync-production', dir, settings())).failedStep).toBeUndefined();
    const converged = await runJob(workflow, 'plan', dir, settings(), comments);
    expect(converged.outputs.plan).toEqual({ exitcode: '0' });
  });
});
