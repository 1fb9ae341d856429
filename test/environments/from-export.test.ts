/**
 * docs/environments.md "From one exported account": a hand-made production account exported,
 * split into a base and two environments as the doc says (ids and production-only objects to
 * production's overlay), taken over in production and created in staging; both plan empty, and
 * `export --env production` then writes an overlay that validates and plans empty.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { TestAccount } from '../support/account.js';
import { apiEnv } from '../support/account.js';
import { cliMain, useTwoAccounts } from './support/two-accounts.js';

let dir: string;
let production: TestAccount;
let env: Record<string, string>;
useTwoAccounts('acctsync-from-export-', (accounts) => {
  ({ dir, production, env } = accounts);
});

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function acctsync(args: readonly string[], extra: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [cliMain, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, ...env, ...extra },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
}

type Entries = Record<string, Record<string, unknown>>;

/** A nested rule without its `id:`. */
function withoutId(item: unknown): unknown {
  if (typeof item !== 'object' || item === null) return item;
  const { id: _id, ...rest } = item as Record<string, unknown>;
  return rest;
}

/** The doc's step 3: every `id:` out of the base, each entry's into production's `patch:`. */
function moveIds(entries: Entries): { base: Entries; ids: Record<string, { id: string }> } {
  const base: Entries = {};
  const ids: Record<string, { id: string }> = {};
  for (const [name, entry] of Object.entries(entries)) {
    const { id, ...rest } = entry as { id: string } & Record<string, unknown>;
    ids[name] = { id };
    base[name] = Object.fromEntries(
      Object.entries(rest).map(([k, v]) => [k, Array.isArray(v) ? v.map(withoutId) : v]),
    );
  }
  return { base: JSON.parse(JSON.stringify(base)) as Entries, ids };
}

it('an exported production account becomes a base and two environments that plan empty', async () => {
  // A hand-made production account: nothing manages it yet.
  const office = await production.client.post<{ id: string }>('/ip_policies', {
    description: 'Office networks',
  });
  await production.client.post('/ip_policy_rules', {
    ip_policy_id: office.body.id,
    cidr: '203.0.113.0/24',
    action: 'allow',
    description: 'HQ',
  });
  await production.client.post('/ip_policies', { description: 'Partners' });

  // 1. Export production's account.
  const exported = await acctsync(['export', '--out', 'exported'], apiEnv(production));
  expect(exported.status, exported.stderr).toBe(0);
  const policies = parse(readFileSync(join(dir, 'exported/ip_policies.yaml'), 'utf8')) as {
    ip_policies: Entries;
  };
  const keys = parse(readFileSync(join(dir, 'exported/api_keys.yaml'), 'utf8')) as { api_keys: Entries };

  // 2-3. The base without ids; production's overlay holds the ids and the bootstrap key, observed.
  rmSync(join(dir, 'config'), { recursive: true });
  mkdirSync(join(dir, 'config/base'), { recursive: true });
  mkdirSync(join(dir, 'config/staging'));
  mkdirSync(join(dir, 'config/production'));
  writeFileSync(
    join(dir, 'config/acctsync.yaml'),
    stringify({
      version: 1,
      scope: 'web',
      environments: {
        staging: {
          paths: ['staging'],
          api_url_env: 'STAGING_SVC_API_URL',
          api_key_env: 'STAGING_SVC_API_KEY',
        },
        production: {
          paths: ['production'],
          api_url_env: 'PRODUCTION_SVC_API_URL',
          api_key_env: 'PRODUCTION_SVC_API_KEY',
        },
      },
    }),
  );
  const { base, ids } = moveIds(policies.ip_policies);
  writeFileSync(join(dir, 'config/base/ip_policies.yaml'), stringify({ version: 1, ip_policies: base }));
  const [bootstrapName, bootstrap] = Object.entries(keys.api_keys)[0]!;
  writeFileSync(
    join(dir, 'config/production/overlay.yaml'),
    stringify({
      version: 1,
      patch: { ip_policies: ids },
      api_keys: { [bootstrapName]: { id: (bootstrap as { id: string }).id, observe: true } },
    }),
  );
  writeFileSync(join(dir, 'config/staging/overlay.yaml'), 'version: 1\n');

  const validated = await acctsync(['validate', 'config']);
  expect(validated.status, validated.stderr).toBe(0);

  // 4. Production: adoptions only, then empty.
  const adopted = await acctsync(['sync', 'config', '--env', 'production', '--adopt']);
  expect(adopted.status, adopted.stderr).toBe(0);
  expect(adopted.stdout).not.toMatch(/^\s+\+ /m);
  const productionPlan = await acctsync(['plan', 'config', '--env', 'production', '--detailed-exitcode']);
  expect(productionPlan.status, productionPlan.stdout + productionPlan.stderr).toBe(0);

  // 5. Staging: the base is created there, no id in the way, then empty.
  const stagingSync = await acctsync(['sync', 'config', '--env', 'staging']);
  expect(stagingSync.status, stagingSync.stderr).toBe(0);
  const stagingPlan = await acctsync(['plan', 'config', '--env', 'staging', '--detailed-exitcode']);
  expect(stagingPlan.status, stagingPlan.stdout + stagingPlan.stderr).toBe(0);

  // A production id left in the base: staging's plan says whose id it may be.
  // (On an entry staging does not manage yet: a managed one pairs by its marker, before any pin.)
  const withId = { ...base, extra: { description: 'Extra', id: Object.values(ids)[0]!.id } };
  writeFileSync(join(dir, 'config/base/ip_policies.yaml'), stringify({ version: 1, ip_policies: withId }));
  const stale = await acctsync(['plan', 'config', '--env', 'staging']);
  expect(stale.status).toBe(1);
  expect(stale.stderr).toContain("in staging's account: it may be another environment's id");
  writeFileSync(join(dir, 'config/base/ip_policies.yaml'), stringify({ version: 1, ip_policies: base }));

  // A hand change in production comes back as its overlay, which validates and plans empty.
  await production.client.patch(`/ip_policies/${Object.values(ids)[1]!.id}`, {
    description: 'Partners (prod)',
  });
  const overlay = await acctsync([
    'export',
    'config',
    '--env',
    'production',
    '--out',
    'config/production/overlay.yaml',
  ]);
  expect(overlay.status, overlay.stderr).toBe(0);
  expect(readFileSync(join(dir, 'config/production/overlay.yaml'), 'utf8')).toContain('Partners (prod)');
  const revalidated = await acctsync(['validate', 'config']);
  expect(revalidated.status, revalidated.stderr).toBe(0);
  const after = await acctsync(['plan', 'config', '--env', 'production', '--detailed-exitcode']);
  expect(after.status, after.stdout + after.stderr).toBe(0);
}, 300_000);
