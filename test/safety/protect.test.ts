/**
 * Protection lives on the live object: once `protect: true` was synced, no plan deletes or replaces
 * the object (removed from the config, `--force`, `--no-delete`, a replace) until `protect: false`
 * or `--unprotect KEY`; `forget` stops managing an object and leaves it as it is.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const policy = (extra: string, cidr = '203.0.113.0/24', action = 'allow') => `version: 1
scope: protect
ip_policies:
  office:
    description: Office networks
${extra}    rules:
      - { cidr: ${cidr}, action: ${action} }
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/network.yaml', policy('    protect: true\n'));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

const policies = () =>
  account.client.listAll<{ id: string; metadata: string }>('/ip_policies', 'ip_policies');
const rules = () => account.client.listAll<{ id: string }>('/ip_policy_rules', 'ip_policy_rules');

it('records protection in the ownership marker', async () => {
  const [live] = await policies();
  expect(JSON.parse(live?.metadata ?? '')).toMatchObject({
    acctsync: { key: 'ip_policies/office', protect: true },
  });
});

it.each([[['sync']], [['sync', '--force']], [['sync', '--force', '--no-delete']], [['plan']]])(
  'refuses to delete a protected object whose block left the config: %j',
  async (args) => {
    await account.write('account/network.yaml', 'version: 1\nscope: protect\n');
    const writes = account.writes();
    const run = await account.acctsync(args);
    if (args.includes('--no-delete')) {
      // Nothing is deleted then, so nothing is refused.
      expect(run.code, run.stderr).toBe(0);
    } else {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'error: refusing to plan: 1 protected object would be deleted or replaced',
      );
      expect(run.stderr).toMatch(/- ip_policies\/office \(ipp_\w+\): left the config/);
      expect(run.stderr).toContain('--unprotect ip_policies/office');
    }
    expect(account.writes()).toBe(writes);
    expect(await policies()).toHaveLength(1);
    expect(await rules()).toHaveLength(1);
  },
);

it('refuses a replace of a protected child, even with --no-delete and --force', async () => {
  await account.write(
    'account/network.yaml',
    policy('', '203.0.113.0/24', 'deny').replace('action: deny }', 'action: deny, protect: true }'),
  );
  const first = await account.acctsync(['sync', '--force', '--no-delete']);
  expect(first.code).toBe(1);
  expect(first.stderr).toMatch(/refusing to plan: 1 protected object/);
});

it('protection stays when the line is dropped, and --unprotect lets the delete through', async () => {
  await account.write('account/network.yaml', policy(''));
  expect((await account.acctsync(['sync'])).code).toBe(0);
  await account.write('account/network.yaml', 'version: 1\nscope: protect\n');
  expect((await account.acctsync(['sync', '--force'])).code).toBe(1);
  const run = await account.acctsync(['sync', '--force', '--unprotect', 'ip_policies/office']);
  expect(run.code, run.stderr).toBe(0);
  expect(await policies()).toHaveLength(0);
});

it('protect: false synced first lifts protection', async () => {
  await account.write('account/network.yaml', policy('    protect: false\n'));
  expect((await account.acctsync(['sync'])).code).toBe(0);
  await account.write('account/network.yaml', 'version: 1\nscope: protect\n');
  const run = await account.acctsync(['sync', '--force']);
  expect(run.code, run.stderr).toBe(0);
  expect(await policies()).toHaveLength(0);
});

it('forget leaves the object untouched and unmanaged', async () => {
  const [before] = await policies();
  await account.write('account/network.yaml', 'version: 1\nscope: protect\n');
  const forgot = await account.acctsync(['forget', 'ip_policies/office']);
  expect(forgot.code, forgot.stderr).toBe(0);
  expect(forgot.stdout).toMatch(
    /^forgot ip_policies\/office \(ipp_\w+\): no longer managed, left as it is$/m,
  );
  const [after] = await policies();
  expect(after?.id).toBe(before?.id);
  // The marker is gone; the service leaves the empty metadata out of its answer.
  expect(after?.metadata ?? '').toBe('');
  expect(await rules()).toHaveLength(1);
  // Nothing left to manage: the next sync changes nothing.
  const run = await account.acctsync(['sync', '--dry-run', '--detailed-exitcode']);
  expect(run.code, run.stdout).toBe(0);
});

it('forget refuses a key still in the config', async () => {
  const run = await account.acctsync(['forget', 'ip_policies/office']);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('error: refusing to forget ip_policies/office: still in the config');
});
