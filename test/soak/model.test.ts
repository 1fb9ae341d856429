/**
 * The model-based suite at length (see test/model/): 12 seeds of 250 steps, half at parallelism 1
 * and half at 16, every step converging in one sync with no 409 and nothing left to plan.
 */
import { describe, expect, it } from 'vitest';
import { runModel } from '../model/run.js';
import { suiteSeed } from '../reliability/support/prng.js';

const seed = suiteSeed('model soak');
const seeds = 12;
const steps = 250;

describe('every reviewed change converges in one sync (model soak)', () => {
  it.each(Array.from({ length: seeds }, (_, i) => [i, i % 2 === 0 ? 1 : 16] as const))(
    `run %i: ${steps} steps at --parallelism %i`,
    async (i, parallelism) => {
      const run = await runModel(seed + i, steps, parallelism);
      expect(run.failure?.report, `seed ${seed + i}`).toBeUndefined();
    },
  );
});
