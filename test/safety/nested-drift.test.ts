/**
 * Nested items are part of their parent: a rule added by hand to a managed IP policy, or a route
 * to a managed HTTPS edge, is drift the plan shows and sync removes, unless the entry's `ignore:`
 * names the collection (issue 43).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const config = (ignoreRules: boolean) => `version: 1
scope: nested
ip_policies:
  office:
    description: Office
${ignoreRules ? '    ignore: [rules]\n' : ''}    rules:
      - { cidr: 10.0.0.0/8, action: allow }
ip_restrictions:
  dashboard:
    type: dashboard
    ip_policies: [office]
https_edges:
  shop:
    hostports: ['shop.example.com:443']
    routes:
      - { match_type: path_prefix, match: /api }
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
});
afterEach(async () => {
  await account.close();
});

async function syncWith(ignoreRules: boolean): Promise<void> {
  await account.write('account/main.yaml', config(ignoreRules));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
}

async function policyId(): Promise<string> {
  const [policy] = await account.client.listAll<{ id: string }>('/ip_policies', 'ip_policies');
  return policy?.id ?? '';
}

const cidrs = async (): Promise<string[]> =>
  (await account.client.listAll<{ cidr: string }>('/ip_policy_rules', 'ip_policy_rules'))
    .map((r) => r.cidr)
    .sort();

it('plans a rule added in the dashboard as drift and sync removes it', async () => {
  await syncWith(false);
  await account.client.post('/ip_policy_rules', {
    ip_policy_id: await policyId(),
    cidr: '0.0.0.0/0',
    action: 'allow',
  });

  const plan = await account.acctsync(['plan', '--detailed-exitcode']);
  expect(plan.code, plan.stderr).toBe(2);
  expect(plan.stdout).toMatch(
    /- ip_policies\/office\/rules\/0\.0\.0\.0\/0 +IP policy rule ipr_\w+ +\(added outside acctsync\)/,
  );
  expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 0 to replace, 1 to delete');

  const json = await account.acctsync(['plan', '--output', 'json']);
  const ops = (
    JSON.parse(json.stdout) as { operations: { action: string; key: string; reason_code: string }[] }
  ).operations;
  expect(ops).toEqual([
    expect.objectContaining({
      action: 'delete',
      key: 'ip_policies/office/rules/0.0.0.0/0',
      reason_code: 'delete_because_added_outside',
    }),
  ]);

  const sync = await account.acctsync(['sync']);
  expect(sync.code, sync.stderr).toBe(0);
  expect(await cidrs()).toEqual(['10.0.0.0/8']);
  const after = await account.acctsync(['plan', '--detailed-exitcode']);
  expect(after.code, after.stdout).toBe(0);
});

it('removes a route added by hand to a managed HTTPS edge: every nested kind, from its descriptor', async () => {
  await syncWith(false);
  const [edge] = await account.client.listAll<{ id: string }>('/edges/https', 'https_edges');
  await account.client.post(`/edges/https/${edge?.id ?? ''}/routes`, {
    match_type: 'path_prefix',
    match: '/admin',
  });

  const plan = await account.acctsync(['plan']);
  expect(plan.stdout).toMatch(
    /- https_edges\/shop\/routes\/path_prefix:\/admin +HTTPS edge route \w+ +\(added outside acctsync\)/,
  );
  const sync = await account.acctsync(['sync']);
  expect(sync.code, sync.stderr).toBe(0);
  const [after] = await account.client.listAll<{ routes: { match: string }[] }>(
    '/edges/https',
    'https_edges',
  );
  expect(after?.routes.map((r) => r.match)).toEqual(['/api']);
});

it("keeps a hand-added rule when the policy's ignore: names rules", async () => {
  await syncWith(true);
  await account.client.post('/ip_policy_rules', {
    ip_policy_id: await policyId(),
    cidr: '0.0.0.0/0',
    action: 'allow',
  });
  const plan = await account.acctsync(['plan', '--detailed-exitcode']);
  expect(plan.code, plan.stdout).toBe(0);
  expect(plan.stdout).toContain('No changes');
  const sync = await account.acctsync(['sync']);
  expect(sync.code, sync.stderr).toBe(0);
  expect(await cidrs()).toEqual(['0.0.0.0/0', '10.0.0.0/8']);
});
