import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter, Pacer } from '../../src/api/pacing.js';

describe('Pacer', () => {
  it('asks to wait one interval after the previous start, measured on the clock', async () => {
    let now = 1000;
    const waits: number[] = [];
    const pacer = new Pacer({
      ratePerMinute: 60,
      sleep: (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
      now: () => now,
    });

    await Promise.all([pacer.waitTurn(), pacer.waitTurn(), pacer.waitTurn()]);
    now += 400;
    await pacer.waitTurn();

    expect(waits).toEqual([1000, 1000, 600]);
  });

  it('lets later turns go when an earlier one is aborted', async () => {
    const pacer = new Pacer({ ratePerMinute: 6000, sleep: () => Promise.resolve() });
    const aborted = pacer.waitTurn(AbortSignal.abort());
    await expect(aborted).rejects.toThrow();
    await expect(pacer.waitTurn()).resolves.toEqual(expect.any(Number));
  });
});

describe('Pacer on 429', () => {
  function clocked(ratePerMinute?: number) {
    const clock = { now: 0, waits: [] as number[], paces: [] as number[] };
    const pacer = new Pacer({
      ratePerMinute,
      sleep: (ms) => {
        clock.waits.push(ms);
        clock.now += ms;
        return Promise.resolve();
      },
      now: () => clock.now,
      onPace: (rate) => clock.paces.push(rate),
    });
    return { clock, pacer };
  }

  it('halves the rate once per burst, holds every request for Retry-After, and climbs back additively', async () => {
    const { clock, pacer } = clocked(120);
    const started = await pacer.waitTurn();
    clock.now += 100;
    pacer.throttled(started, 5_000);
    // A second request of the same burst met the same exhausted budget: no second halving.
    pacer.throttled(started, 5_000);
    expect(pacer.ratePerMinute).toBe(60);
    await pacer.waitTurn();
    expect(clock.waits).toEqual([5_000]);
    await pacer.waitTurn();
    expect(clock.waits).toEqual([5_000, 1_000]);
    const rates = Array.from({ length: 12 }, () => {
      pacer.succeeded();
      return pacer.ratePerMinute;
    });
    // Ten successes back to the rate the 429 met, by a constant step; never above --rate-limit.
    expect(rates.slice(0, 10)).toEqual([66, 72, 78, 84, 90, 96, 102, 108, 114, 120]);
    expect(rates.slice(10)).toEqual([120, 120]);
    expect(clock.paces[0]).toBe(60);
  });

  it('paces an unpaced process at half the rate it was sending at when the first 429 came', async () => {
    const { clock, pacer } = clocked();
    expect(pacer.ratePerMinute).toBe(Infinity);
    let last = 0;
    for (let i = 0; i < 20; i++) {
      last = await pacer.waitTurn();
      clock.now += 100;
    }
    expect(clock.waits).toEqual([]);
    pacer.throttled(last, undefined);
    // 20 starts in 2 s: 600 a minute, halved.
    expect(pacer.ratePerMinute).toBe(300);
    const next = await pacer.waitTurn();
    pacer.throttled(next, 1_000);
    expect(pacer.ratePerMinute).toBe(150);
  });
});

describe('ConcurrencyLimiter', () => {
  it('hands slots out first come, first served, and skips aborted waiters', async () => {
    const limiter = new ConcurrencyLimiter(1);
    const order: string[] = [];
    const first = await limiter.acquire();
    const controller = new AbortController();
    const second = limiter.acquire(controller.signal);
    const third = limiter.acquire().then((release) => {
      order.push('third');
      return release;
    });
    controller.abort();
    await expect(second).rejects.toThrow('aborted while waiting');
    first();
    first(); // a second release must not free another slot
    (await third)();
    expect(order).toEqual(['third']);
  });
});
