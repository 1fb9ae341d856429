/**
 * The service's time as a lease judges it: bounds from answers' `Date` headers carried forward on
 * an injected monotonic clock (no waiting), and through a client against the emulator, whose clock
 * runs apart from this machine's.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClock } from '../../src/api/service-clock.js';
import { startAccount } from '../support/account.js';

const at = (iso: string): number => Date.parse(iso);
const dated = (iso: string) => ({ date: new Date(iso).toUTCString() });

describe('the service clock', () => {
  it('bounds the service time by the last answers, moving on with the monotonic clock', () => {
    let now = 0;
    const clock = new ServiceClock(() => now);
    // Sent at 100, answered at 150, dated 12:00:00: the service's time was in [12:00:00, 12:00:01)
    // somewhere between 100 and 150.
    clock.observe(dated('2026-01-01T12:00:00Z'), 100, 150);
    now = 10_150;
    expect(clock.earliest()).toBe(at('2026-01-01T12:00:10Z'));
    expect(clock.latest()).toBe(at('2026-01-01T12:00:11.050Z'));
    // A faster answer narrows the upper bound; an answer without a Date changes nothing.
    clock.observe(dated('2026-01-01T12:00:10Z'), 10_140, 10_145);
    clock.observe({}, 10_146, 10_147);
    expect(clock.earliest()).toBe(at('2026-01-01T12:00:10.005Z'));
    expect(clock.latest()).toBe(at('2026-01-01T12:00:11.010Z'));
  });

  it('follows a service clock that was set: an answer contradicting the bounds replaces them', () => {
    let now = 0;
    const clock = new ServiceClock(() => now);
    clock.observe(dated('2026-01-01T12:00:00Z'), 0, 10);
    now = 1_000;
    clock.observe(dated('2026-01-01T12:10:00Z'), 990, 1_000);
    expect(clock.earliest()).toBe(at('2026-01-01T12:10:00Z'));
    clock.observe(dated('2026-01-01T11:00:00Z'), 1_000, 1_000);
    expect(clock.latest()).toBe(at('2026-01-01T11:00:01Z'));
  });

  it("a client reads the emulator's time, two minutes behind this machine's", async () => {
    await using account = await startAccount({ now: () => new Date(Date.now() - 120_000) });
    await account.client.get('/ip_policies');
    const { serviceClock } = account.client;
    expect(serviceClock.earliest()).toBeLessThanOrEqual(Date.now() - 119_000);
    expect(serviceClock.latest()).toBeGreaterThanOrEqual(Date.now() - 121_000);
    expect(serviceClock.latest()).toBeLessThan(Date.now() - 60_000);
  });
});
