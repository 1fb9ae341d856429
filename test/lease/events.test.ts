/**
 * The lease's footprint in the account's event stream, as a security team subscribed to SSH key
 * events sees it (docs/lease.md): a sync creates and deletes one SSH credential and updates none;
 * an idle daemon renews its lease with its idle TTL (5 times --lock-ttl), every third of that and
 * not every third of --lock-ttl. The renewals' rhythm is shown on a clock the test moves (the
 * keeper against the emulator over HTTP); the spawned daemon shows the TTL it writes.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.js';
import { LeaseKeeper } from '../../src/lease/keeper.js';
import { parseLeaseRecord } from '../../src/resources/index.js';
import { runCli } from '../support/cli.js';
import { startAccount } from '../support/account.js';
import { ManualClock } from '../support/manual-clock.js';
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

interface SshEvent {
  readonly event_type: string;
  readonly event_timestamp: string;
  readonly object: { readonly metadata?: unknown };
}

/** SSH key events delivered so far, oldest first. */
async function deliveredEvents(url: string, token: string): Promise<SshEvent[]> {
  const res = await fetch(`${url}/_emulator/deliveries`, { headers: { authorization: `Bearer ${token}` } });
  const { deliveries } = (await res.json()) as { deliveries: { event: SshEvent }[] };
  return deliveries.map((d) => d.event).filter((e) => sshEvents.includes(e.event_type));
}

/** SSH key events delivered so far, by type. */
async function delivered(url: string, token: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { event_type: type } of await deliveredEvents(url, token))
    counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

const updates = (events: SshEvent[]): SshEvent[] =>
  events.filter((e) => e.event_type === 'ssh_public_key_updated.v0');

/** How long past the event the lease record it carries expires: the TTL the holder wrote. */
function ttlWritten(event: SshEvent | undefined): number {
  const expiresAt = parseLeaseRecord(event?.object.metadata)?.expiresAt ?? '';
  return Date.parse(expiresAt) - Date.parse(event?.event_timestamp ?? '');
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

  it('an idle daemon with --lock-ttl 60s: one update every 100 s (a third of its idle TTL, 5 minutes), not every 20 s', async () => {
    // The service's time, the client's and the lease's timers move only when the test moves them.
    const clock = new ManualClock();
    await using account = await startAccount({
      now: clock.now,
      client: { retry: { attempts: 1 }, monotonic: clock.monotonic },
    });
    await subscribe(account.client);
    const lockTtlMs = 60_000;
    let lost = false;
    const keeper = new LeaseKeeper(
      account.client,
      { command: 'acctsync watch', ttlMs: lockTtlMs, timers: clock.timers },
      () => (lost = true),
    );
    const hold = await keeper.hold('idle');
    if (!hold.held) throw new Error(`the free scope was not taken: ${hold.holder}`);
    // A reconcile that writes: the lease on --lock-ttl before its first write, back on the idle TTL after its last.
    await hold.writing();
    const idle = clock.nextTimer();
    hold.idle();
    await idle;
    const reconciled = await deliveredEvents(account.url, account.token);
    // A holder writes the latest the service's time can be plus its TTL: a second past the
    // whole-second `Date` it last read, on a clock that did not move while the request was out.
    expect(updates(reconciled).map(ttlWritten)).toEqual([lockTtlMs + 1000, 5 * lockTtlMs + 1000]);

    // Ten idle minutes, a third of --lock-ttl at a time; each renewal is answered (and the next one
    // armed) before the clock moves on.
    const idleSince = clock.now().getTime();
    for (let moved = 0; moved < 10 * 60_000; moved += lockTtlMs / 3) {
      const armed = clock.nextTimer();
      if (clock.advance(lockTtlMs / 3) > 0) await armed;
    }
    const renewals = updates(await deliveredEvents(account.url, account.token)).slice(2);
    expect(renewals.map((e) => (Date.parse(e.event_timestamp) - idleSince) / 1000)).toEqual([
      100, 200, 300, 400, 500, 600,
    ]);
    expect(renewals.map(ttlWritten)).toEqual(renewals.map(() => 5 * lockTtlMs + 1000));
    expect(lost).toBe(false);

    await keeper.release();
    expect(await delivered(account.url, account.token)).toEqual({
      'ssh_public_key_created.v0': 1,
      'ssh_public_key_updated.v0': 2 + 6,
      'ssh_public_key_deleted.v0': 1,
    });
  });

  it('a watch writes its lease with --lock-ttl while it writes and with 5 times that once idle', async () => {
    const daemon = await startWatch({
      files: { 'a.yaml': policyFile('office') },
      args: ['--lock-ttl', '60s'],
      before: (account) => subscribe(account.client),
    });
    try {
      await waitFor('the first reconcile', async () => (await daemon.readyz()).status === 200, 30_000);
      const { url, token } = daemon.emulator;
      // Its first reconcile wrote: the lease went to --lock-ttl for it and back to the idle TTL.
      const [writing, idle] = await waitFor('the lease back on its idle TTL', async () => {
        const found = updates(await deliveredEvents(url, token));
        return found.length >= 2 ? found : undefined;
      });
      // A holder writes the latest the service's time can be (up to a second past it) plus its TTL;
      // the event's time has whole seconds. The margins below only allow for a slow machine.
      expect(ttlWritten(writing)).toBeGreaterThan(50_000);
      expect(ttlWritten(writing)).toBeLessThanOrEqual(62_000);
      expect(ttlWritten(idle)).toBeGreaterThan(290_000);
      expect(ttlWritten(idle)).toBeLessThanOrEqual(302_000);
      const counts = await delivered(url, token);
      expect(counts['ssh_public_key_created.v0']).toBe(1);
      expect(counts['ssh_public_key_deleted.v0']).toBeUndefined();
    } finally {
      await daemon.close();
    }
  });
});
