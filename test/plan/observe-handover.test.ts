/**
 * Observed means never written, never deleted (docs/config.md "Observed objects"): a managed entry
 * turned observed is handed over (this scope's marker comes off it and its marked rules, nothing
 * else is written), so removing the entry, or its whole file, deletes nothing; `forget` works on
 * an observed entry. The built CLI against the emulator over HTTP.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Plan } from '../../src/plan-format/index.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const corp = (observe: boolean) => `version: 1
scope: team
ip_policies:
  corp:
${observe ? '    observe: true\n' : ''}    description: Corporate networks
    rules:
      - { cidr: 192.0.2.0/24, action: allow }
${observe ? '' : '      - { cidr: 198.51.100.0/24, action: allow }\n'}`;

const web = `version: 1
scope: team
ip_policies:
  web:
    description: Web
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/corp.yaml', corp(false));
  await account.write('account/web.yaml', web);
  const synced = await account.acctsync(['sync', 'account/']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

const liveIds = async () => [
  ...(await account.client.listAll<{ id: string }>('/ip_policies', 'ip_policies')).map((p) => p.id),
  ...(await account.client.listAll<{ id: string }>('/ip_policy_rules', 'ip_policy_rules')).map((r) => r.id),
];
const deletes = () =>
  account.answered((r) => r.method === 'DELETE' && !r.route.startsWith('/ssh_credentials'));
const planJson = async (): Promise<Plan> => {
  const run = await account.acctsync(['plan', 'account/', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Plan;
};

it('a managed entry turned observed is handed over; removing its file then deletes and plans nothing', async () => {
  const before = await liveIds();
  await account.write('account/corp.yaml', corp(true));
  const text = await account.acctsync(['plan', 'account/']);
  expect(text.code, text.stderr).toBe(0);
  expect(text.stdout).toMatch(
    /^ {2}~ ip_policies\/corp {2}IP policy ipp_\w+ {2}\(observed: this scope's marker comes off; nothing else is written\)$/m,
  );
  // The rule the observed entry does not list is not deleted: it is let go with its policy.
  expect(text.stdout).toContain('ip_policies/corp/rules/198.51.100.0/24');
  const handOver = await planJson();
  expect(handOver.operations.filter((op) => op.action !== 'update')).toEqual([]);
  expect(handOver.operations.map((op) => op.reason_code)).toEqual([
    'update_because_observed',
    'update_because_observed',
    'update_because_observed',
  ]);
  const synced = await account.acctsync(['sync', 'account/']);
  expect(synced.code, synced.stderr).toBe(0);
  expect((await planJson()).operations).toEqual([]);

  await rm(join(account.dir, 'account/corp.yaml'));
  const after = await planJson();
  expect(after.operations).toEqual([]);
  expect(after.summary.managed).toBe(1);
  const removed = await account.acctsync(['sync', 'account/']);
  expect(removed.code, removed.stderr).toBe(0);
  expect(deletes()).toBe(0);
  expect((await liveIds()).sort()).toEqual(before.sort());
});

it('forget works on an observed entry, and removing the entry then deletes nothing', async () => {
  const before = await liveIds();
  await account.write('account/corp.yaml', corp(true));
  const forgot = await account.acctsync(['forget', 'account/', 'ip_policies/corp']);
  expect(forgot.code, forgot.stderr).toBe(0);
  expect(forgot.stdout).toMatch(/^forgot ip_policies\/corp \(ipp_\w+\): no longer managed, left as it is$/m);
  // Its rules went with it; the observed entry still finds it, by its description.
  const observed = await planJson();
  expect(observed.operations).toEqual([]);
  expect(observed.observed?.map((o) => o.key)).toEqual([
    'ip_policies/corp',
    'ip_policies/corp/rules/192.0.2.0/24',
  ]);
  await account.write('account/corp.yaml', 'version: 1\nscope: team\n');
  expect((await planJson()).operations).toEqual([]);
  expect((await account.acctsync(['sync', 'account/'])).code).toBe(0);
  expect(deletes()).toBe(0);
  expect((await liveIds()).sort()).toEqual(before.sort());
});
