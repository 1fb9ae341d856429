/**
 * A managed object whose ownership marker a dashboard user edited out of its metadata is found
 * by its natural key (here its description) before anything is written: sync, plan and the
 * saved-plan apply refuse to create a second one beside it, naming it and `--adopt`, which takes it
 * back with its marker rewritten. The built CLI against the emulator over HTTP.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Plan } from '../../src/plan-format/index.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';

const config = `version: 1
scope: team
ip_policies:
  blocked:
    description: Blocked scanners
    rules:
      - { cidr: 198.51.100.0/24, action: deny }
      - { cidr: 203.0.113.0/24, action: deny }
ip_restrictions:
  dash: { type: dashboard, enforced: false, ip_policies: [blocked] }
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/main.yaml', config);
  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

interface LivePolicy {
  readonly id: string;
  readonly description: string;
  readonly metadata: string;
}
const policies = () => account.client.listAll<LivePolicy>('/ip_policies', 'ip_policies');
const rules = () =>
  account.client.listAll<{ id: string; ip_policy: { id: string } }>('/ip_policy_rules', 'ip_policy_rules');

/** The policy, its marker replaced in the dashboard. */
async function editMarkerAway(): Promise<LivePolicy> {
  const [policy] = await policies();
  if (policy === undefined) throw new Error('the first sync made no policy');
  await account.client.patch(`/ip_policies/${policy.id}`, { metadata: 'reviewed by the security team' });
  return policy;
}

it('refuses to create a duplicate beside a policy whose marker was edited away, and --adopt takes it back', async () => {
  const policy = await editMarkerAway();
  const writes = account.writes();

  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code).toBe(1);
  expect(synced.stderr).toContain(
    `refusing to sync: ip_policies/blocked would be created beside the unmanaged IP policy ${policy.id} (same description): --adopt takes it back`,
  );
  expect(synced.stderr).toContain(`ip_policies/blocked: IP policy ${policy.id} has the same description`);
  expect(synced.stderr).toContain('--adopt');
  // --force lifts limits on deletes, not this.
  const forced = await account.acctsync(['sync', 'account/', '--yes', '--force']);
  expect(forced.code).toBe(1);
  expect(forced.stderr).toContain(policy.id);
  expect(account.writes()).toBe(writes);
  expect(await policies()).toHaveLength(1);

  const adopted = await account.acctsync(['sync', 'account/', '--adopt', '--yes']);
  expect(adopted.code, adopted.stderr).toBe(0);
  const [back, ...more] = await policies();
  expect(more).toEqual([]);
  expect(back?.id).toBe(policy.id);
  expect(back?.metadata).not.toContain('reviewed by the security team');
  expect((await rules()).every((r) => r.ip_policy.id === policy.id)).toBe(true);
  const after = await account.acctsync(['plan', 'account/', '--detailed-exitcode']);
  expect(after.code, after.stdout).toBe(0);
  expect(after.stdout).toContain('No changes.');
});

it('plan shows the refusal in text, markdown and JSON, and exits 1 with --detailed-exitcode', async () => {
  const policy = await editMarkerAway();

  const text = await account.acctsync(['plan', 'account/', '--detailed-exitcode']);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(
    `sync would refuse this: ip_policies/blocked would be created beside the unmanaged IP policy ${policy.id}`,
  );
  expect(text.stdout).toContain(`  + ip_policies/blocked: IP policy ${policy.id} has the same description`);
  expect(text.stdout).toContain('run once with --adopt to take it back');

  const markdown = await account.acctsync(['plan', 'account/', '--output', 'markdown']);
  expect(markdown.stdout).toMatch(
    /^> \*\*sync would refuse this:\*\* ip\\_policies\/blocked would be created beside/m,
  );
  expect(markdown.stdout).toContain(
    `> + ip\\_policies/blocked: IP policy ${policy.id.replaceAll('_', '\\_')} has the same description`,
  );
  expect(markdown.stdout).toContain('run once with --adopt to take it back');

  const json = await account.acctsync(['plan', 'account/', '--output', 'json']);
  const plan = JSON.parse(json.stdout) as Plan;
  expect(plan.syncRefusal?.guard).toBe('lookalike');
  expect(plan.lookalikes).toEqual([
    {
      key: 'ip_policies/blocked',
      kind: 'ip_policies',
      objects: [{ kind: 'ip_policies', id: policy.id, same: 'description' }],
    },
  ]);
  expect(plan.unmanaged).toContainEqual({ kind: 'ip_policies', id: policy.id, name: 'Blocked scanners' });
});

it('apply of a saved plan refuses it too, writing nothing', async () => {
  await editMarkerAway();
  const saved = await account.acctsync(['plan', 'account/', '--out', 'plan.json']);
  expect(saved.code, saved.stderr).toBe(0);
  const writes = account.writes();
  const applied = await account.acctsync(['apply', 'plan.json']);
  expect(applied.code).toBe(1);
  expect(applied.stderr).toContain('--adopt');
  expect(account.writes()).toBe(writes);
  expect(await policies()).toHaveLength(1);
});

it('id: new on the entry creates another beside it, as asked', async () => {
  await editMarkerAway();
  await account.write('account/main.yaml', config.replace('  blocked:\n', '  blocked:\n    id: new\n'));
  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
  expect(await policies()).toHaveLength(2);
});

it('finds a policy with no description by its rules, still marked as its own, and --adopt takes it back', async () => {
  await account.write('account/main.yaml', config.replace('    description: Blocked scanners\n', ''));
  expect((await account.acctsync(['sync', 'account/', '--yes'])).code).toBe(0);
  const policy = await editMarkerAway();
  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code).toBe(1);
  expect(synced.stderr).toContain(
    `ip_policies/blocked: IP policy ${policy.id} has the same IP policy rules (marked as ip_policies/blocked's)`,
  );
  const adopted = await account.acctsync(['sync', 'account/', '--adopt', '--yes']);
  expect(adopted.code, adopted.stderr).toBe(0);
  expect(await policies()).toEqual([expect.objectContaining({ id: policy.id })]);
  const plan = await account.acctsync(['plan', 'account/', '--detailed-exitcode']);
  expect(plan.code, plan.stdout).toBe(0);
});
