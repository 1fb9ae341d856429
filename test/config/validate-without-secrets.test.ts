/**
 * A pull request's first check runs `validate` with no secret in its job, on a config whose
 * secrets are `{env: ...}` placeholders (as `export` writes them): it passes, naming the values it
 * could not check; every command that would send them still refuses, naming each.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

const examples = join(import.meta.dirname, '../../examples');

it('validate passes an exported account without its secrets; export lists them; plan and sync refuse each', async () => {
  await using account = await startCliAccount();
  await cp(examples, account.dir, { recursive: true });
  const synced = await account.acctsync(['sync', 'account']);
  expect(synced.code, synced.stderr).toBe(0);

  const exported = await account.acctsync(['export', '--out', 'exported']);
  expect(exported.code, exported.stderr).toBe(0);
  const listed = [...exported.stderr.matchAll(/^acctsync: {3}(ACCTSYNC_\w+)$/gm)].map((m) => m[1]!);
  expect(listed.length).toBeGreaterThanOrEqual(3);
  expect(exported.stderr).toContain(`acctsync: set ${listed.length} secret variables before a plan or sync`);

  for (const ci of [{}, { GITHUB_ACTIONS: 'true', CI: 'true' }]) {
    const validated = await account.acctsync(['validate', 'exported'], ci);
    expect(validated.code, validated.stderr).toBe(0);
    const lines = validated.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^valid: \d+ objects in \d+ files$/);
    expect(lines).toHaveLength(2);
    const unchecked =
      /^not checked: (\d+) values not available here: (.*) \(plan, sync, apply and watch need them\)$/.exec(
        lines[1] ?? '',
      );
    expect(unchecked?.[1]).toBe(String(listed.length));
    expect(unchecked?.[2]?.split(', ').sort()).toEqual(listed.map((v) => `{env: ${v}}`).sort());
    expect(validated.stderr).not.toContain('error');
  }

  for (const command of [['plan'], ['sync']]) {
    const run = await account.acctsync([...command, 'exported']);
    expect(run.code, run.stdout).toBe(1);
    for (const variable of listed)
      expect(run.stderr).toContain(`environment variable ${variable} is not set`);
  }
  expect(account.writes()).toBeGreaterThan(0);
}, 180_000);
