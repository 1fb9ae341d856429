/**
 * A lease is only an SSH credential whose public key is the derived key of its scope. An
 * `acctsync_lease` member typed by hand into any other object's metadata hides nothing: the managed
 * object stays managed, its drift is corrected, and no duplicate is created beside it.
 */
import { describe, expect, it } from 'vitest';
import { startCliAccount } from '../safety/support.js';

const config = `version: 1
scope: shaped
ip_policies:
  office:
    description: Office networks
    rules:
      - { cidr: 203.0.113.0/24, action: allow, description: HQ }
ip_restrictions:
  dashboard:
    description: Dashboard only from the office
    type: dashboard
    enforced: true
    ip_policies: [office]
`;

/** A hand edit adding a lease-shaped member beside the marker, as a dashboard user can. */
function withLeaseMember(metadata: unknown): string {
  const parsed = JSON.parse(String(metadata)) as Record<string, unknown>;
  const record = {
    scope: 'shaped',
    command: 'acctsync sync',
    host: 'laptop',
    pid: 1,
    since: '2026-01-01T00:00:00Z',
    expires_at: '9999-01-01T00:00:00Z',
    nonce: 'n',
  };
  return JSON.stringify({ ...parsed, acctsync_lease: record });
}

type Listed = Record<string, unknown>[];

describe('an acctsync_lease member on a managed object', () => {
  it('of an IP restriction (turned unenforced): corrected in place, no second restriction', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', config);
    expect((await account.acctsync(['sync', 'account', '--yes'])).code).toBe(0);
    const { body } = await account.client.get<{ ip_restrictions: Listed }>('/ip_restrictions');
    const [restriction] = body.ip_restrictions;
    await account.client.patch(`/ip_restrictions/${String(restriction?.id)}`, {
      enforced: false,
      metadata: withLeaseMember(restriction?.metadata),
    });

    const plan = await account.acctsync(['plan', 'account', '--output', 'json']);
    expect(plan.code, plan.stderr).toBe(0);
    const ops = (JSON.parse(plan.stdout) as { operations: { id: string }[] }).operations;
    expect(ops.map((op) => op.id)).toEqual(['update ip_restrictions/dashboard']);

    const sync = await account.acctsync(['sync', 'account', '--yes']);
    expect(sync.code, sync.stderr).toBe(0);
    const after = (await account.client.get<{ ip_restrictions: Listed }>('/ip_restrictions')).body;
    expect(after.ip_restrictions.map((r) => [r.id, r.enforced])).toEqual([[restriction?.id, true]]);
    const again = await account.acctsync(['plan', 'account']);
    expect(again.stdout).toMatch(/No changes/);
  });

  it('of an IP policy rule: the next syncs converge instead of looping on another writer', async () => {
    await using account = await startCliAccount();
    await account.write('account/network.yaml', config);
    expect((await account.acctsync(['sync', 'account', '--yes'])).code).toBe(0);
    const { body } = await account.client.get<{ ip_policy_rules: Listed }>('/ip_policy_rules');
    const [rule] = body.ip_policy_rules;
    await account.client.patch(`/ip_policy_rules/${String(rule?.id)}`, {
      metadata: withLeaseMember(rule?.metadata),
    });

    for (let round = 0; round < 2; round++) {
      const sync = await account.acctsync(['sync', 'account', '--yes']);
      expect(sync.code, sync.stderr).toBe(0);
      expect(sync.stdout).not.toMatch(/another writer/);
    }
    const after = (await account.client.get<{ ip_policy_rules: Listed }>('/ip_policy_rules')).body;
    expect(after.ip_policy_rules.map((r) => r.id)).toEqual([rule?.id]);
    expect((await account.acctsync(['plan', 'account'])).stdout).toMatch(/No changes/);
  });
});
