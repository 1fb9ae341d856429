/**
 * Sync through a flaky API: the emulator's own faults (500, 503 and 429 with Retry-After, latency,
 * connection dropped after a committed write) and a proxy's transport faults (resets before and after
 * the server acted, bodies cut short or slow, latency). Each converges within 3 runs, with no
 * duplicate object and nothing lost.
 */
import { describe, expect, it } from 'vitest';
import { faultCases, runFaultCase } from './support/faults.js';
import { createRng, suiteSeed } from './support/prng.js';

const seed = suiteSeed('faults');

describe('sync of examples/ through faults', () => {
  it.each(faultCases.map((c, i) => [c.name, c, i] as const))(
    '%s: converges within 3 runs, no duplicates, nothing lost',
    async (_name, c, i) => {
      const outcome = await runFaultCase(c, createRng(seed + i));
      const context = `seed ${seed + i}\n${outcome.log.join('\n')}`;
      expect(outcome.runs, context).toBeDefined();
      expect(outcome.duplicateMarkers, context).toEqual([]);
      expect(outcome.duplicateNaturalKeys, context).toEqual([]);
      expect(outcome.missingKeys, context).toEqual([]);
      expect(outcome.extraKeys, context).toEqual([]);
      expect(outcome.lost, context).toEqual([]);
      if (c.emulator?.latencyMs === undefined || Object.keys(c.emulator).length > 1 || c.proxy) {
        // The faults did happen: a case that injected nothing would prove nothing.
        expect(outcome.injected, context).toBeGreaterThan(0);
      }
    },
    60_000,
  );
});
