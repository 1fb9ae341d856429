/** Crashes, the full count: 10 sync processes and 20 `serve --data` processes SIGKILLed mid-write. */
import { describe, expect, it } from 'vitest';
import { killServeTrial, killSyncTrial } from '../reliability/support/crash.js';
import { createRng, suiteSeed } from '../reliability/support/prng.js';

describe('crashes (soak)', () => {
  it('sync SIGKILLed at random points of an apply: every re-run converges, no duplicates (10 trials)', async () => {
    const seed = suiteSeed('kill-sync soak');
    const rng = createRng(seed);
    for (let trial = 0; trial < 10; trial++) {
      const o = await killSyncTrial(rng);
      const context = `seed ${seed} trial ${trial}: ${o.label}`;
      expect(o.killed, context).toBe(true);
      expect(o.rerunStatus, context).toBe('succeeded');
      expect(o.pendingAfterRerun, context).toBe(0);
      expect(o.duplicateMarkers, context).toEqual([]);
      expect(o.duplicateNaturalKeys, context).toEqual([]);
    }
  });

  it('serve --data SIGKILLed during writes: the data file always loads (20 trials)', async () => {
    const seed = suiteSeed('kill-serve soak');
    const rng = createRng(seed);
    for (let trial = 0; trial < 20; trial++) {
      const o = await killServeTrial(rng);
      const context = `seed ${seed} trial ${trial}: ${o.label}`;
      expect(o.loadError, context).toBeUndefined();
      expect(o.acknowledged, context).toBeGreaterThan(0);
    }
  });
});
