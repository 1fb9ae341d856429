/**
 * The model-based suite (see model.ts): seeded random sequences of reviewed changes over every kind,
 * each step synced once and then planned, at parallelism 1 and 16. `npm test` runs two seeds of a
 * few dozen steps, renames among them (every renamed object keeps its id); `npm run test:soak` runs thousands (test/soak/model.test.ts). A failure prints
 * its seed: `RELIABILITY_SEED=<n>` replays it.
 */
import { describe, expect, it } from 'vitest';
import { suiteSeed } from '../reliability/support/prng.js';
import { runModel } from './run.js';

const seed = suiteSeed('model');

describe('every reviewed change converges in one sync (model)', () => {
  // The service as the vendor's examples answer, and as an echo of what it is sent: acctsync must
  // converge against both (docs/emulator.md, "How it answers").
  it.each([
    [1, 0, 'vendor-like'],
    [16, 1, 'vendor-like'],
    [16, 2, 'echo'],
  ])(
    '40 steps at --parallelism %i (seed + %i), %s answers: no failure, no 409, nothing left to plan',
    async (parallelism, offset, answers) => {
      const run = await runModel(seed + offset, 40, parallelism, answers === 'echo');
      expect(run.failure?.report, `seed ${seed + offset}`).toBeUndefined();
      // The run changed the account in every way, not only by adding objects.
      console.log(`[model] seed ${seed + offset}: ${JSON.stringify(run)}`);
      for (const action of ['create', 'update', 'delete', 'rename'])
        expect(run.operations[action], action).toBeGreaterThan(0);
    },
    120_000,
  );
});
