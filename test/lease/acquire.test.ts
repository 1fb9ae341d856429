/**
 * The lease protocol against the emulator over HTTP: of two writers starting at the same moment
 * exactly one holds the scope, on a fresh scope and on one whose holder died; a holder renews, and
 * learns when its lease is broken; plans never see the lease object.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { hostname } from 'node:os';
import type { ApiClient } from '../../src/api/index.js';
import { LeaseHeldError, recordOf } from '../../src/lease/acquire.js';
import { thisHolder, type Holder } from '../../src/lease/holder.js';
import { ScopeLease } from '../../src/lease/lease.js';
import { createLease, deleteLease, findLease } from '../../src/lease/store.js';
import { fetchLiveState } from '../../src/live/index.js';
import { planFor } from '../../src/pipeline/index.js';
import type { LeaseRecord } from '../../src/resources/index.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { ManualClock } from '../support/manual-clock.js';
import { useAccount } from '../support/use-account.js';

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
    // The holder arms its next renewal once this one is answered.
    const answered = clock.nextTimer();
    clock.advance(1);
    await answered;
    const renewed = await expiresAt('held');
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

describe('waiting for a held scope (--lock-timeout)', () => {
  const timeoutMs = 5 * 60_000;

  /** An account whose time moves only when the test moves it, as does its client's monotonic clock. */
  async function accountOnClock(clock: ManualClock): Promise<TestAccount> {
    return startAccount({ now: clock.now, client: { retry: { attempts: 1 }, monotonic: clock.monotonic } });
  }

  /** A holder on another machine whose record says it holds `scope` for `ttlMs` from the service's time now. */
  async function heldFor(account: TestAccount, clock: ManualClock, ttlMs: number): Promise<LeaseRecord> {
    const record = {
      scope: 'held',
      command: 'acctsync watch',
      host: 'ops-2',
      pid: 77,
      since: clock.now().toISOString(),
      expiresAt: new Date(clock.now().getTime() + ttlMs).toISOString(),
      nonce: 'other',
    };
    await createLease(account.client, record);
    return record;
  }

  /** A writer waiting for `scope` on the test's clock, and what it was told while it waited. */
  function waiter(account: TestAccount, clock: ManualClock, waitMs = timeoutMs) {
    const told: { holder: LeaseRecord; until: Date }[] = [];
    const acquiring = ScopeLease.acquire(account.client, 'held', {
      ...settings,
      timeoutMs: waitMs,
      timers: clock.timers,
      onWait: (holder, until) => told.push({ holder, until }),
    });
    // Settled either way: the test awaits `acquiring` for the outcome.
    const settled = acquiring.then(
      () => undefined,
      () => undefined,
    );
    return { told, acquiring, settled };
  }

  /**
   * Moves the clock by each wait the writer starts, until it holds the scope or gives up; the
   * waits, in order. A writer that waited on real time instead would never start one.
   */
  async function driveWaits(clock: ManualClock, settled: Promise<undefined>): Promise<number[]> {
    const waits: number[] = [];
    for (;;) {
      const next = await Promise.race([clock.nextWait(), settled]);
      if (next === undefined) return waits;
      waits.push(next);
      clock.advance(next);
    }
  }

  it("asks every third of its TTL, told once, and takes the scope when the holder's lease expires", async () => {
    const clock = new ManualClock();
    await using account = await accountOnClock(clock);
    const dead = await heldFor(account, clock, settings.ttlMs);
    const { told, acquiring, settled } = waiter(account, clock);
    const waits = await driveWaits(clock, settled);
    const lease = await acquiring;
    // Not before the service's time reached the holder's expiry, and not later either.
    expect(clock.now().toISOString()).toBe(dead.expiresAt);
    expect(waits).toEqual([20_000, 20_000, 20_000]);
    expect(told).toHaveLength(1);
    expect(told[0]?.holder).toMatchObject({ host: 'ops-2', pid: 77, nonce: 'other' });
    expect(told[0]?.until.toISOString()).toBe('2026-01-01T00:05:00.000Z');
    expect((await findLease(account.client, 'held'))?.record?.host).toBe(hostname());
    await lease.release();
  });

  it('takes the scope at its next ask once the holder hands it back', async () => {
    const clock = new ManualClock();
    await using account = await accountOnClock(clock);
    const first = await ScopeLease.tryAcquire(
      account.client,
      'held',
      { ...settings, timers: clock.timers },
      holder(1),
    );
    if (!(first instanceof ScopeLease)) throw new Error('the first writer did not get the free scope');
    const firstWait = clock.nextWait();
    const { told, acquiring } = waiter(account, clock);
    const wait = await firstWait;
    expect(told.map((t) => t.holder.host)).toEqual(['runner-1']);
    await first.release();
    clock.advance(wait);
    const lease = await acquiring;
    expect(clock.monotonic()).toBe(settings.ttlMs / 3);
    expect(told).toHaveLength(1);
    expect((await findLease(account.client, 'held'))?.record?.host).toBe(hostname());
    await lease.release();
  });

  it('gives up when --lock-timeout passes on its clock, naming the holder, and leaves its lease alone', async () => {
    const clock = new ManualClock();
    await using account = await accountOnClock(clock);
    await heldFor(account, clock, 10 * 60_000);
    const { told, acquiring, settled } = waiter(account, clock, 30_000);
    const waits = await driveWaits(clock, settled);
    const error = await acquiring.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(LeaseHeldError);
    expect(String(error)).toMatch(/scope held is held by 'acctsync watch' on ops-2 \(pid 77\)/);
    // The last wait ends at the timeout, not at the holder's next expected renewal.
    expect(waits).toEqual([20_000, 10_000]);
    expect(told[0]?.until.toISOString()).toBe('2026-01-01T00:00:30.000Z');
    expect((await findLease(account.client, 'held'))?.record?.nonce).toBe('other');
  });
});
