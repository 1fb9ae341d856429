/**
 * With the emulator failing 20% of requests (503, 429, and connections dropped after a write
 * committed), syncing examples/ converges within 3 runs and never leaves a duplicate object:
 * lost creates are found by their marker instead of being created twice.
 */
import { afterEach, expect, it } from 'vitest';
import type { ApplyResult } from '../../src/apply/index.js';
import { examplesState, markerCounts, startHarness, syncState, type Harness } from './harness.js';

let h: Harness;
afterEach(async () => {
  await h.close();
});

// Seeded dice: each round is a different, replayable sequence of faults.
it.each([1, 2, 3])('converges within 3 runs under faults, with no duplicate (seed %i)', async (seed) => {
  h = await startHarness({ faults: { error503: 0.07, error429: 0.07, dropAfterWrite: 0.07, seed } });
  const desired = await examplesState();
  const results: ApplyResult[] = [];
  for (let run = 0; run < 3; run++) {
    try {
      const { result } = await syncState(h, desired, { continueOnError: true });
      results.push(result);
      if (result.status === 'succeeded') break;
    } catch {
      // A plan whose reads failed every retry: the next run starts over, as a person would.
    }
  }
  expect(results.at(-1)?.status).toBe('succeeded');
  h.emulator.setFaults({});
  expect((await syncState(h, desired)).computed.plan.operations).toEqual([]);
  const counts = await markerCounts(h.client, desired.scope);
  expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);
  expect(counts.size).toBe(desired.objects.length);
  // The faults did happen, writes' responses were lost, and the applier recovered from them.
  const dropped = h.emulator.stats().routes.filter((r) => r.status === 'dropped');
  expect(dropped.length).toBeGreaterThan(0);
  expect(results.flatMap((r) => r.operations).some((o) => o.recovery !== undefined)).toBe(true);
});
