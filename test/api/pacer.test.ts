import { describe, expect, it } from 'vitest';
import { ConcurrencyLimiter } from '../../src/api/limiter.js';
import { Pacer } from '../../src/api/pacer.js';

describe('Pacer', () => {
  it('asks to wait one interval after the previous start, measured on the clock', async () => {
    let now = 1000;
    const waits: number[] = [];
    const pacer = new Pacer(
      60,
      (ms) => {
        waits.push(ms);
        now += ms;
        return Promise.resolve();
      },
      () => now,
    );

    await Promise.all([pacer.waitTurn(), pacer.waitTurn(), pacer.waitTurn()]);
    now += 400;
    await pacer.waitTurn();

    expect(waits).toEqual([1000, 1000, 600]);
  });

  it('lets later turns go when an earlier one is aborted', async () => {
    const pacer = new Pacer(6000, () => Promise.resolve());
    const aborted = pacer.waitTurn(AbortSignal.abort());
    await expect(aborted).rejects.toThrow();
    await expect(pacer.waitTurn()).resolves.toBeUndefined();
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
