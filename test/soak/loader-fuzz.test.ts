/** Loader fuzz, long: 10,000 mutations, every one loading the whole examples directory. */
import { describe, expect, it } from 'vitest';
import { fuzzLoader } from '../reliability/support/loader-fuzz.js';
import { suiteSeed } from '../reliability/support/prng.js';

describe('loader fuzz (soak)', () => {
  it('10,000 mutated configs: a clean result or located diagnostics, never a crash', async () => {
    const seed = suiteSeed('loader-fuzz soak');
    const report = await fuzzLoader(seed, 10_000, 1);
    expect(report.failures.slice(0, 10), `seed ${seed}`).toEqual([]);
    expect(report.clean).toBeGreaterThan(0);
    expect(report.rejected).toBeGreaterThan(0);
  }, 3_600_000);
});
