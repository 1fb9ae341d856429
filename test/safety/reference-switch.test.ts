/**
 * A reference switch waits for the whole creation of what it switches to: renaming an IP policy's
 * key without `moved:` creates a new policy, and the restriction and the TLS edge move to it only
 * once its rules exist; the old policy goes only once nothing points at it (issue 43).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const config = (policy: string) => `version: 1
scope: switch
ip_policies:
  ${policy}:
    description: Office
    rules:
      - { cidr: 10.0.0.0/8, action: allow }
      - { cidr: 192.168.0.0/16, action: allow }
ip_restrictions:
  dashboard:
    type: dashboard
    ip_policies: [${policy}]
tls_edges:
  db:
    hostports: ['db.example.com:443']
    ip_restriction: { ip_policies: [${policy}] }
`;

interface PlanOp {
  readonly id: string;
  readonly action: string;
  readonly key: string;
  readonly dependsOn: readonly string[];
}

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/main.yaml', config('office'));
  const synced = await account.acctsync(['sync']);
  expect(synced.code, synced.stderr).toBe(0);
});
afterEach(async () => {
  await account.close();
});

it("switches the restriction and the TLS edge to a renamed policy only after the new policy's rules exist", async () => {
  await account.write('account/main.yaml', config('hq'));
  const run = await account.acctsync(['plan', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  const ops = (JSON.parse(run.stdout) as { operations: PlanOp[] }).operations;
  const op = (prefix: string): PlanOp => {
    const found = ops.find((o) => o.id.startsWith(prefix));
    expect(found, prefix).toBeDefined();
    return found as PlanOp;
  };
  const wholeCreation = [
    'create ip_policies/hq',
    'create ip_policies/hq/rules/10.0.0.0/8',
    'create ip_policies/hq/rules/192.168.0.0/16',
  ];
  for (const referrer of ['update ip_restrictions/dashboard', 'update tls_edges/db'])
    expect(op(referrer).dependsOn, referrer).toEqual(expect.arrayContaining(wholeCreation));
  // The reverse: the old policy (its rules go with it) is deleted once both point elsewhere.
  expect(op('delete ip_policies/office#').dependsOn).toEqual(
    expect.arrayContaining(['update ip_restrictions/dashboard', 'update tls_edges/db']),
  );
  const index = (id: string) => ops.findIndex((o) => o.id === id);
  for (const created of wholeCreation)
    expect(index(created)).toBeLessThan(index('update ip_restrictions/dashboard'));

  const sync = await account.acctsync(['sync', '--parallelism', '16']);
  expect(sync.code, sync.stderr).toBe(0);
  const [policy] = await account.client.listAll<{ id: string }>('/ip_policies', 'ip_policies');
  const [restriction] = await account.client.listAll<{ ip_policies: { id: string }[] }>(
    '/ip_restrictions',
    'ip_restrictions',
  );
  expect(restriction?.ip_policies.map((p) => p.id)).toEqual([policy?.id]);
  const rules = await account.client.listAll<{ cidr: string }>('/ip_policy_rules', 'ip_policy_rules');
  expect(rules.map((r) => r.cidr).sort()).toEqual(['10.0.0.0/8', '192.168.0.0/16']);
});
