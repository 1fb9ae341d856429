/**
 * One repository, two accounts: examples/environments planned and synced through the CLI against
 * two emulators over HTTP, each environment reaching its own through its own variables.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { TestAccount } from '../support/account.js';
import { runCli } from '../support/cli.js';
import { useTwoAccounts } from './support/two-accounts.js';
import { configRepository, readWorkflow, runJob, type Comment } from '../cli/support/github-actions.js';

let dir: string;
let staging: TestAccount;
let production: TestAccount;
let apiVariables: Record<string, string>;
useTwoAccounts('acctsync-envs-cli-', (accounts) => {
  ({ dir, staging, production, env: apiVariables } = accounts);
});

/** The CLI as CI runs it, with both environments' accounts in its variables; asynchronous, as the emulators answer from this process. */
async function acctsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const run = await runCli(args, { cwd: dir, env: apiVariables });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
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

/** The pull-request check of every environment: markdown, exit code 2 on changes, 1 on a refusal. */
const planAllEnvsMarkdown = ['plan', 'config', '--all-envs', '--output', 'markdown', '--detailed-exitcode'];

describe('environments through the CLI', { timeout: 180_000 }, () => {
  it('each environment syncs into its own account and converges', async () => {
    await syncBoth();
    const ids = async (e: TestAccount, path: string) =>
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
    const run = await acctsync(planAllEnvsMarkdown);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('## acctsync plan: 2 environments');
    expect(run.stdout).toContain('| `staging` | 5 | 0 | 0 | 0 | 0 |');
    expect(run.stdout).toContain('| `production` | 10 | 0 | 0 | 0 | 0 |');
    expect(run.stdout).toContain('<summary>Environment <code>production</code></summary>');
    expect(run.stdout.length).toBeLessThan(65_536);
  });

  it('plan --all-envs shows what sync would refuse in an environment, and exits 1 for it', async () => {
    await syncBoth();
    // Production's plan deletes 2 of its 10 objects: over a reviewed 10%; staging has too few to count.
    edit('acctsync.yaml', (t) => `${t}guards:\n  max_delete_percent: 10\n`);
    edit('base/edges.yaml', () => 'version: 1\n');
    const markdown = await acctsync(planAllEnvsMarkdown);
    expect(markdown.status, markdown.stderr).toBe(1);
    const production = markdown.stdout.slice(markdown.stdout.indexOf('<code>production</code>'));
    expect(production).toContain(
      '> **sync would refuse this:** the plan deletes or replaces 2 of 10 managed objects (20%, the limit is 10%)',
    );
    expect(markdown.stdout.split('sync would refuse this')).toHaveLength(2);

    const json = await acctsync(['plan', 'config', '--all-envs', '--output', 'json']);
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      environments: { name: string; plan: { syncRefusal?: { guard: string } } }[];
    };
    expect(report.environments.map((e) => [e.name, e.plan.syncRefusal?.guard])).toEqual([
      ['staging', undefined],
      ['production', 'mass_delete'],
    ]);
    const text = await acctsync(['plan', 'config', '--all-envs']);
    expect(text.status, text.stderr).toBe(0);
    const productionText = text.stdout.slice(text.stdout.indexOf('production'));
    expect(productionText).toMatch(
      /sync would refuse this: the plan deletes or replaces 2 of 10 managed objects \(20%, the limit is 10%\)/,
    );
    expect(text.stdout.split('sync would refuse this')).toHaveLength(2);
  });

  it('plan --all-envs takes --unprotect as plan --env does', async () => {
    edit('production/network.yaml', (t) =>
      t.replace('    description: Known bad actors (production only)\n', '$&    protect: true\n'),
    );
    await syncBoth();
    edit('production/network.yaml', (t) => t.replace(/ip_policies:\n {2}blocklist:\n(?: {4}.*\n)+/, ''));
    const refused = await acctsync(['plan', 'config', '--all-envs', '--output', 'json']);
    expect(refused.status, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('refusing to plan: 1 protected object would be deleted or replaced');

    const run = await acctsync([
      ...['plan', 'config', '--all-envs', '--output', 'json'],
      ...['--unprotect', 'ip_policies/blocklist'],
    ]);
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as JsonReport;
    // A delete's id names the live object it deletes: `delete KEY#ID`.
    expect(
      report.environments.map((e) => [e.name, e.plan.operations.map((op) => op.id.split('#')[0])]),
    ).toEqual([
      ['staging', []],
      ['production', ['delete ip_policies/blocklist']],
    ]);
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
  const pullRequest = readWorkflow('examples/ci/.github/workflows/acctsync-environments-pr.yml');
  const settings = () => apiVariables;

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

  it('a pull request gets one comment per environment, each planned in its own job; each sync job converges its own account', async () => {
    configRepository(dir);
    const comments: Comment[] = [];
    const planBoth = async (): Promise<string[]> => {
      // The pull request's workflow validates config/ and uploads it; each plan job plans the upload.
      expect((await runJob(pullRequest, 'validate', dir, {})).failedStep).toBeUndefined();
      const codes: string[] = [];
      for (const job of ['plan-staging', 'plan-production']) {
        const run = await runJob(workflow, job, dir, settings(), comments);
        expect(run.failedStep).toBeUndefined();
        codes.push(run.outputs.plan!.exitcode!);
      }
      return codes;
    };
    const body = (environment: string) =>
      comments.find((c) => c.body.startsWith(`<!-- acctsync-plan:${environment} -->`))!.body;
    expect(await planBoth()).toEqual(['2', '2']);
    expect(comments).toHaveLength(2);
    expect(body('staging')).toContain('Plan: 5 to create');
    expect(body('production')).toContain('Plan: 10 to create');

    expect((await runJob(workflow, 'sync-staging', dir, settings())).failedStep).toBeUndefined();
    expect(await planBoth()).toEqual(['0', '2']);
    expect(comments).toHaveLength(2);
    expect(body('staging')).toContain('No changes');
    expect(body('production')).toContain('Plan: 10 to create');

    expect((await runJob(workflow, 'sync-production', dir, settings())).failedStep).toBeUndefined();
    expect(await planBoth()).toEqual(['0', '0']);
  });
});

/** A hand change in an account, through its API as a person's script or the dashboard makes it. */
async function call(e: TestAccount, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${e.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${e.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
  const text = await res.text();
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function liveId(e: TestAccount, path: string, member: string, description: string): Promise<string> {
  const list = (await call(e, 'GET', path)) as Record<string, Array<{ id: string; description: string }>>;
  return list[member]!.find((o) => o.description === description)!.id;
}

/** Every file of the config but the one named, as text: what export --env must leave alone. */
function otherFiles(except: string): Record<string, string> {
  const files = ['acctsync.yaml', 'base/network.yaml', 'base/edges.yaml', 'staging/network.yaml'];
  return Object.fromEntries(
    files.filter((f) => f !== except).map((f) => [f, readFileSync(join(dir, 'config', f), 'utf8')]),
  );
}

describe(
  'export --env writes what differs from the base as the environment overlay',
  { timeout: 180_000 },
  () => {
    it('after hand changes in production, the rewritten overlay plans empty there; the base and staging are unchanged', async () => {
      await syncBoth();
      const before = otherFiles('production/network.yaml');
      const office = await liveId(production, '/ip_policies', 'ip_policies', 'Office networks (production)');
      await call(production, 'PATCH', `/ip_policies/${office}`, { description: 'Office networks (audited)' });
      const monitoring = await liveId(production, '/ip_policies', 'ip_policies', 'External monitoring');
      const rules = (await call(production, 'GET', '/ip_policy_rules')) as {
        ip_policy_rules: Array<{ id: string; ip_policy: { id: string } }>;
      };
      for (const rule of rules.ip_policy_rules.filter((r) => r.ip_policy.id === monitoring))
        await call(production, 'DELETE', `/ip_policy_rules/${rule.id}`);
      await call(production, 'DELETE', `/ip_policies/${monitoring}`);
      const backend = await liveId(
        production,
        '/backends/http_response',
        'backends',
        'Shown while the service is down',
      );
      await call(production, 'PATCH', `/backends/http_response/${backend}`, { status_code: 502 });

      const drifted = await planAll();
      expect(drifted.environments[1]!.plan.operations.map((o) => o.id).sort()).toEqual([
        'create ip_policies/monitoring',
        'create ip_policies/monitoring/rules/198.51.100.0/28',
        'update backends/maintenance',
        'update ip_policies/office',
      ]);

      // The example's overlay is hand-written: replacing it takes --force.
      const run = await acctsync(['export', 'config', '--env', 'production', '--force']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        'acctsync: wrote the overlay of production to config/production/network.yaml: 2 patched, 1 dropped, 1 added',
      );
      const overlay = parse(readFileSync(join(dir, 'config/production/network.yaml'), 'utf8')) as unknown;
      expect(overlay).toEqual({
        version: 1,
        drop: { ip_policies: ['monitoring'] },
        patch: {
          ip_policies: {
            office: {
              description: 'Office networks (audited)',
              rules: expect.arrayContaining([
                { description: 'HQ', cidr: '203.0.113.0/24', action: 'allow' },
                { description: 'Branch office', cidr: '192.0.2.0/24', action: 'allow' },
              ]) as unknown,
            },
          },
          backends: { maintenance: { http_response: { status_code: 502 } } },
        },
        ip_policies: {
          blocklist: {
            description: 'Known bad actors (production only)',
            rules: [{ cidr: '198.51.100.7/32', action: 'deny' }],
          },
        },
      });

      const plans = await planAll();
      expect(plans.environments.map((e) => [e.name, e.plan.operations.length])).toEqual([
        ['staging', 0],
        ['production', 0],
      ]);
      expect(otherFiles('production/network.yaml')).toEqual(before);
    });

    it('right after a sync, export --env rewrites the overlay it synced: {var} values count as the environment gives them', async () => {
      const synced = await acctsync(['sync', 'config', '--env', 'staging']);
      expect(synced.status, synced.stderr).toBe(0);
      const run = await acctsync(['export', 'config', '--env', 'staging', '--force']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        'acctsync: wrote the overlay of staging to config/staging/network.yaml: 1 patched, 1 dropped, 0 added',
      );
      expect(run.stderr).toContain(
        'acctsync: left out 1 object this scope does not manage (acctsync export writes them for adoption)',
      );
      expect(parse(readFileSync(join(dir, 'config/staging/network.yaml'), 'utf8'))).toEqual({
        version: 1,
        drop: { ip_policies: ['monitoring'] },
        patch: { ip_restrictions: { dashboard: { enforced: false } } },
      });
    });

    it('an overlay of several files needs --out; --kind and --scope do not go with --env; nothing is written', async () => {
      writeFileSync(join(dir, 'config/production/more.yaml'), 'version: 1\n');
      const before = readFileSync(join(dir, 'config/production/network.yaml'), 'utf8');
      const several = await acctsync(['export', 'config', '--env', 'production']);
      expect(several.status).toBe(1);
      expect(several.stderr).toContain(
        "export --env production: the environment's overlay is 2 files (config/production/more.yaml, config/production/network.yaml); name the one file to write with --out",
      );
      const kind = await acctsync(['export', 'config', '--env', 'production', '--kind', 'backends']);
      expect(kind.status).toBe(1);
      expect(kind.stderr).toContain('leave out --kind and --scope');
      const noEnv = await acctsync(['export', '--move-ids']);
      expect(noEnv.status).toBe(1);
      expect(noEnv.stderr).toContain('export --move-ids goes with --env NAME');
      const unknown = await acctsync(['export', 'config', '--env', 'prod']);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain('no environment named prod');
      expect(readFileSync(join(dir, 'config/production/network.yaml'), 'utf8')).toBe(before);
    });

    it('an account this scope has never synced is not read as dropping the whole base', async () => {
      const run = await acctsync(['export', 'config', '--env', 'staging', '--out', 'staging.yaml']);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        'export --env staging: the account has no object scope web manages or the config pins by id, so its overlay would drop the whole base',
      );
      // The command it suggests reaches the same account as printed: the config path and --env.
      expect(run.stderr).toContain('Sync it first (acctsync sync config --env staging)');
      expect(existsSync(join(dir, 'staging.yaml'))).toBe(false);
    });
  },
);
