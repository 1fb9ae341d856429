/**
 * The lease protocol against the emulator over HTTP: of two writers starting at the same moment
 * exactly one holds the scope, on a fresh scope and on one whose holder died; a holder renews, and
 * learns when its lease is broken; plans never see the lease object.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/index.js';
import { recordOf } from '../../src/lease/acquire.js';
import { thisHolder, type Holder } from '../../src/lease/holder.js';
import { ScopeLease } from '../../src/lease/lease.js';
import { createLease, deleteLease, findLease } from '../../src/lease/store.js';
import { fetchLiveState } from '../../src/live/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { useAccount } from '../support/use-account.js';
import { waitFor } from '../watch/daemon-harness.js';

const rounds = 40;
const holder = (n: number): Holder => ({ command: `acctsync sync`, host: `runner-${n}`, pid: 1000 + n });
const settings = { command: 'acctsync sync', ttlMs: 60_000 };

/** Two writers asking for `scope` in the same tick: the leases they got and the holders they were shown. */
async function race(client: ApiClient, scope: string) {
  const attempts = await Promise.all(
    [1, 2].map((n) => ScopeLease.tryAcquire(client, scope, settings, holder(n))),
  );
  const won = attempts.filter((a): a is ScopeLease => a instanceof ScopeLease);
  const refused = attempts.flatMap((a) => (a instanceof ScopeLease ? [] : [a.heldBy]));
  return { won, refused };
}

describe('taking a lease', () => {
  const account = useAccount({ client: { retry: { attempts: 1 } } }, 'file');

  it(`two writers on a fresh scope in the same millisecond: exactly one holds it (${rounds} rounds)`, async () => {
    for (let round = 0; round < rounds; round++) {
      const { won, refused } = await race(account.client, `fresh-${round}`);
      expect(won, `round ${round}`).toHaveLength(1);
      expect(refused).toHaveLength(1);
      // The refused writer is shown the winner.
      const lease = await findLease(account.client, `fresh-${round}`);
      expect(refused[0]?.nonce).toBe(lease?.record?.nonce);
      await won[0]?.release();
      expect(await findLease(account.client, `fresh-${round}`)).toBeUndefined();
    }
  });

  it(`two writers taking over a dead holder's expired lease at once: exactly one holds it (${rounds} rounds)`, async () => {
    for (let round = 0; round < rounds; round++) {
      const scope = `expired-${round}`;
      const dead = recordOf(
        scope,
        holder(9),
        new Date(0).toISOString(),
        'dead',
        -5000,
        account.client.serviceClock,
      );
      const deadId = await createLease(account.client, dead);
      const { won, refused } = await race(account.client, scope);
      expect(won, `round ${round}`).toHaveLength(1);
      expect(refused).toHaveLength(1);
      const lease = await findLease(account.client, scope);
      expect(lease?.id).not.toBe(deadId);
      await won[0]?.release();
    }
  });

  it('a live lease is refused, naming its holder, until it is released', async () => {
    const first = await ScopeLease.tryAcquire(account.client, 'live', settings, holder(1));
    expect(first).toBeInstanceOf(ScopeLease);
    const second = await ScopeLease.tryAcquire(account.client, 'live', settings, holder(2));
    expect(second).not.toBeInstanceOf(ScopeLease);
    if (second instanceof ScopeLease) return;
    expect(second.heldBy).toMatchObject({
      scope: 'live',
      command: 'acctsync sync',
      host: 'runner-1',
      pid: 1001,
    });
    await (first as ScopeLease).release();
    const third = await ScopeLease.tryAcquire(account.client, 'live', settings, holder(2));
    expect(third).toBeInstanceOf(ScopeLease);
    await (third as ScopeLease).release();
  });
});

describe('a holder on this machine whose process is gone', () => {
  const account = useAccount({ client: { retry: { attempts: 1 } } });

  it('is taken over at once, before its TTL passed', async () => {
    const self = thisHolder('acctsync sync');
    // Linux, where CI and the image run, tells its boot and pid namespace (elsewhere the TTL decides).
    expect(self.machine).toBeDefined();
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'exit');
    const dead = { ...self, pid: gone.pid ?? 0 };
    const record = recordOf(
      'killed',
      dead,
      new Date().toISOString(),
      'killed',
      60_000,
      account.client.serviceClock,
    );
    await createLease(account.client, record);
    const taken = await ScopeLease.tryAcquire(account.client, 'killed', settings, self);
    expect(taken).toBeInstanceOf(ScopeLease);
    await (taken as ScopeLease).release();
    // A live process of this machine keeps its lease.
    await createLease(
      account.client,
      recordOf(
        'alive',
        { ...self, pid: process.ppid },
        record.since,
        'x',
        60_000,
        account.client.serviceClock,
      ),
    );
    const refused = await ScopeLease.tryAcquire(account.client, 'alive', settings, self);
    expect(refused).not.toBeInstanceOf(ScopeLease);
  });
});

describe('holding a lease', () => {
  // The service's time, the client's and the holder's timers all move only when the test moves them.
  const clock = new ManualClock();
  const account = useAccount({
    now: clock.now,
    client: { retry: { attempts: 1 }, monotonic: clock.monotonic },
  });
  const expiresAt = async (scope: string) =>
    (await findLease(account.client, scope))?.record?.expiresAt ?? '';

  it('is renewed every third of its TTL while held, and the holder is told when it is broken', async () => {
    const lease = await ScopeLease.acquire(account.client, 'held', {
      ...settings,
      timeoutMs: 0,
      timers: clock.timers,
    });
    const before = await expiresAt('held');
    const writes = () => account.requests.filter((r) => r.method !== 'GET').length;
    const written = writes();
    clock.advance(settings.ttlMs / 3 - 1);
    expect(writes()).toBe(written);
    clock.advance(1);
    const renewed = await waitFor('the renewal to be answered', async () => {
      const after = await expiresAt('held');
      return after > before ? after : undefined;
    });
    expect(Date.parse(renewed) - Date.parse(before)).toBe(settings.ttlMs / 3);
    expect(lease.signal.aborted).toBe(false);

    const found = await findLease(account.client, 'held');
    await deleteLease(account.client, found?.id ?? '');
    const lost = new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
    clock.advance(settings.ttlMs / 3);
    await lost;
    expect(String(lease.signal.reason)).toMatch(
      /lost the lease on scope held: someone broke it \(acctsync unlock\) or took it over/,
    );
    await lease.release();
  });

  it('is invisible to plans: no change, no delete, nothing managed', async () => {
    const lease = await ScopeLease.acquire(account.client, 'plans', { ...settings, timeoutMs: 0 });
    const live = await fetchLiveState(account.client, { scope: 'plans', objects: [] });
    expect(live.objects.filter((o) => o.kind === 'ssh_credentials')).toEqual([]);
    expect(await findLease(account.client, 'plans')).toBeDefined();
    const { plan } = await planFor({ scope: 'plans', objects: [] }, account.client);
    expect(plan.operations).toEqual([]);
    expect(plan.summary.managed).toBe(0);
    await lease.release();
  });
});
