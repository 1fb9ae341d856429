/** Fault injection, repeated: every fault case with 5 different seeds. */
import { describe, expect, it } from 'vitest';
import { faultCases, runFaultCase } from '../reliability/support/faults.js';
import { createRng, suiteSeed } from '../reliability/support/prng.js';

const seed = suiteSeed('faults soak');
const rounds = 5;

describe('sync of examples/ through faults (soak)', () => {
  it.each(faultCases.map((c, i) => [c.name, c, i] as const))(
    '%s: converges within 3 runs in every round, no duplicates, nothing lost',
    async (_name, c, i) => {
      for (let round = 0; round < rounds; round++) {
        const s = seed + i * 1000 + round;
        const outcome = await runFaultCase(c, createRng(s));
        const context = `seed ${s}\n${outcome.log.join('\n')}`;
        expect(outcome.runs, context).toBeDefined();
        expect(outcome.duplicateMarkers, context).toEqual([]);
        expect(outcome.duplicateNaturalKeys, context).toEqual([]);
        expect(outcome.missingKeys, context).toEqual([]);
        expect(outcome.extraKeys, context).toEqual([]);
        expect(outcome.lost, context).toEqual([]);
      }
    },
  );
});
