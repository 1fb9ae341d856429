/**
 * The lease's footprint in the account's event stream, as a security team subscribed to SSH key
 * events sees it (docs/lease.md): a sync creates and deletes one SSH credential and updates none;
 * an idle daemon renews its lease with its idle TTL (5 times --lock-ttl), not every third of
 * --lock-ttl.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.js';
import { runCli } from '../support/cli.js';
import { startAccount } from '../support/account.js';
import { policyFile, startWatch, waitFor } from '../watch/daemon-harness.js';

const sshEvents = ['ssh_public_key_created.v0', 'ssh_public_key_updated.v0', 'ssh_public_key_deleted.v0'];

/** A subscription to SSH key events, as a security team's alerting has. */
async function subscribe(client: ApiClient): Promise<void> {
  const { body } = await client.post<{ id: string }>('/event_destinations', {
    target: { monitoring: { api_key: 'k', service: 'security', site: 'example.com' } },
  });
  await client.post('/event_subscriptions', {
    description: 'new SSH keys',
    destination_ids: [body.id],
    sources: sshEvents.map((type) => ({ type })),
  });
}

/** SSH key events delivered so far, by type. */
async function delivered(url: string, token: string): Promise<Record<string, number>> {
  const res = await fetch(`${url}/_emulator/deliveries`, { headers: { authorization: `Bearer ${token}` } });
  const { deliveries } = (await res.json()) as { deliveries: { event: { event_type: string } }[] };
  const counts: Record<string, number> = {};
  for (const { event } of deliveries)
    if (sshEvents.includes(event.event_type)) counts[event.event_type] = (counts[event.event_type] ?? 0) + 1;
  return counts;
}

describe('SSH key events of the lease', () => {
  it('a sync: one created, one deleted, no update', async () => {
    await using account = await startAccount();
    await subscribe(account.client);
    const cwd = await mkdtemp(join(tmpdir(), 'acctsync-events-'));
    try {
      await writeFile(join(cwd, 'account.yaml'), policyFile('office', 'lab'));
      const result = await runCli(['sync', 'account.yaml', '--yes'], { cwd, env: account.env });
      expect(result.code, result.stderr).toBe(0);
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
    expect(await delivered(account.url, account.token)).toEqual({
      'ssh_public_key_created.v0': 1,
      'ssh_public_key_deleted.v0': 1,
    });
  });

  it('an idle watch renews with its idle TTL: at most one update in 7 s with --lock-ttl 3s', async () => {
    const daemon = await startWatch({
      files: { 'a.yaml': policyFile('office') },
      args: ['--lock-ttl', '3s'],
      before: (account) => subscribe(account.client),
    });
    try {
      await waitFor('the first reconcile', async () => (await daemon.readyz()).status === 200, 30_000);
      const { token } = daemon.emulator;
      // Its first reconcile wrote: the lease went to --lock-ttl for it and back to the idle TTL.
      const settled = await waitFor('the lease back on its idle TTL', async () => {
        const counts = await delivered(daemon.emulator.url, token);
        return (counts['ssh_public_key_updated.v0'] ?? 0) >= 2 ? counts : undefined;
      });
      const start = performance.now();
      await waitFor('7 seconds', () => performance.now() - start >= 7000, 20_000);
      const counts = await delivered(daemon.emulator.url, token);
      // Every third of --lock-ttl (1 s) would be 7 updates; every third of the idle TTL (15 s), at most 1.
      expect(
        (counts['ssh_public_key_updated.v0'] ?? 0) - (settled['ssh_public_key_updated.v0'] ?? 0),
      ).toBeLessThanOrEqual(1);
      expect(counts['ssh_public_key_created.v0']).toBe(1);
      expect(counts['ssh_public_key_deleted.v0']).toBeUndefined();
    } finally {
      await daemon.close();
    }
  });
});
