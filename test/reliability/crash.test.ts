/**
 * Crashes (fast part; the soak suite runs 10 and 20 trials): a sync SIGKILLed mid-apply converges on
 * the next run with no duplicates; `acctsync serve --data` SIGKILLed mid-write leaves a file that loads.
 */
import { describe, expect, it } from 'vitest';
import { killServeTrial, killSyncTrial } from './support/crash.js';
import { createRng, suiteSeed } from './support/prng.js';

describe('crashes', () => {
  it('sync SIGKILLed at random points of an apply: the next run converges, no duplicates (3 trials)', async () => {
    const seed = suiteSeed('kill-sync');
    const rng = createRng(seed);
    for (let trial = 0; trial < 3; trial++) {
      const o = await killSyncTrial(rng);
      const context = `seed ${seed} trial ${trial}: ${o.label}`;
      expect(o.killed, `${context}\n${o.exit}`).toBe(true);
      expect(o.rerunStatus, context).toBe('succeeded');
      expect(o.pendingAfterRerun, context).toBe(0);
      expect(o.duplicateMarkers, context).toEqual([]);
      expect(o.duplicateNaturalKeys, context).toEqual([]);
    }
  }, 120_000);

  it('serve --data SIGKILLed during writes: the data file always loads (3 trials)', async () => {
    const seed = suiteSeed('kill-serve');
    const rng = createRng(seed);
    for (let trial = 0; trial < 3; trial++) {
      const o = await killServeTrial(rng);
      const context = `seed ${seed} trial ${trial}: ${o.label}`;
      expect(o.loadError, context).toBeUndefined();
      expect(o.acknowledged, context).toBeGreaterThan(0);
    }
  }, 120_000);
});
