/**
 * Drift told apart from the change: each update, replace and delete in the JSON plan says whether
 * the config changed since acctsync last wrote the object, the live object changed outside
 * acctsync since, or both; text and markdown show drift under its own heading first (issue 43).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const config = (office: string, lab: string) => `version: 1
scope: cause
ip_policies:
  office:
    description: ${office}
    rules:
      - { cidr: 10.0.0.0/8, action: allow }
  lab:
    description: ${lab}
`;

interface PlanOp {
  readonly id: string;
  readonly action: string;
  readonly key: string;
  readonly cause?: string;
}

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/main.yaml', config('Office', 'Lab'));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

async function editByHand(description: string): Promise<void> {
  const policies = await account.client.listAll<{ id: string; description: string }>(
    '/ip_policies',
    'ip_policies',
  );
  const office = policies.find((p) => p.description.startsWith('Office'));
  await account.client.patch(`/ip_policies/${office?.id ?? ''}`, { description });
}

async function causes(): Promise<Record<string, string | undefined>> {
  const run = await account.acctsync(['plan', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  const ops = (JSON.parse(run.stdout) as { operations: PlanOp[] }).operations;
  return Object.fromEntries(ops.map((op) => [op.id.replace(/#.*/, ''), op.cause]));
}

it('labels a hand edit drift, a config edit config, and both on one object both', async () => {
  await editByHand('Office (edited in the dashboard)');
  await account.write('account/main.yaml', config('Office', 'Lab networks'));
  expect(await causes()).toEqual({
    'update ip_policies/office': 'drift',
    'update ip_policies/lab': 'config',
  });

  await account.write('account/main.yaml', config('Office HQ', 'Lab networks'));
  expect(await causes()).toEqual({ 'update ip_policies/office': 'both', 'update ip_policies/lab': 'config' });

  // Once synced, what was written is the config again: the next hand edit is drift alone.
  const sync = await account.acctsync(['sync']);
  expect(sync.code, sync.stderr).toBe(0);
  await editByHand('Office again by hand');
  expect(await causes()).toEqual({ 'update ip_policies/office': 'drift' });
});

it('shows drift under "Changed outside acctsync" before the config\'s changes, in text and markdown', async () => {
  await editByHand('Office (edited in the dashboard)');
  const [policy] = (
    await account.client.listAll<{ id: string; description: string }>('/ip_policies', 'ip_policies')
  ).filter((p) => p.description.startsWith('Office'));
  await account.client.post('/ip_policy_rules', {
    ip_policy_id: policy?.id,
    cidr: '0.0.0.0/0',
    action: 'allow',
  });
  await account.write('account/main.yaml', config('Office', 'Lab networks'));

  expect(await causes()).toEqual({
    'update ip_policies/office': 'drift',
    'update ip_policies/lab': 'config',
    'delete ip_policies/office/rules/0.0.0.0/0': 'drift',
  });

  const text = await account.acctsync(['plan']);
  expect(text.code, text.stderr).toBe(0);
  const lines = text.stdout.split('\n');
  const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
  const heading = at(/^Changed outside acctsync \(the plan puts it back\):$/);
  const configHeading = at(/^Changes from the config:$/);
  expect(heading, text.stdout).toBeGreaterThan(0);
  expect(at(/^ +~ ip_policies\/office {2}IP policy/)).toBeGreaterThan(heading);
  expect(at(/^ +- ip_policies\/office\/rules\/0\.0\.0\.0\/0 .*\(added outside acctsync\)/)).toBeGreaterThan(
    heading,
  );
  expect(configHeading).toBeGreaterThan(at(/^ +- ip_policies\/office\/rules/));
  expect(at(/^ +~ ip_policies\/lab {2}IP policy/)).toBeGreaterThan(configHeading);

  const md = await account.acctsync(['plan', '--output', 'markdown']);
  expect(md.code, md.stderr).toBe(0);
  const outside = md.stdout.indexOf('#### Changed outside acctsync');
  const fromConfig = md.stdout.indexOf('#### Changes from the config');
  expect(outside, md.stdout).toBeGreaterThan(0);
  expect(fromConfig).toBeGreaterThan(outside);
  const section = md.stdout.slice(outside, fromConfig);
  expect(section).toContain('! ~ ip_policies/office (IP policy');
  expect(section).toContain('- - ip_policies/office/rules/0.0.0.0/0 (IP policy rule');
  expect(section).not.toContain('ip_policies/lab');
  expect(md.stdout.slice(fromConfig)).toContain('! ~ ip_policies/lab (IP policy');
});
