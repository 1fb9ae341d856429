/**
 * Loader fuzz: at least 2,000 random mutations of the example files. Each ends in a clean result or
 * diagnostics with a location, never an uncaught exception, and never an API call.
 */
import { describe, expect, it } from 'vitest';
import { fuzzLoader } from './support/loader-fuzz.js';
import { suiteSeed } from './support/prng.js';

describe('loader fuzz', () => {
  it('2,000 mutated configs: a clean result or located diagnostics, never a crash', async () => {
    const seed = suiteSeed('loader-fuzz');
    const report = await fuzzLoader(seed, 2_000, 25);
    expect(report.failures.slice(0, 10), `seed ${seed}`).toEqual([]);
    expect(report.clean + report.rejected).toBe(2_000);
    // Both outcomes occur: a fuzz that only ever produced errors would not test clean loads.
    expect(report.clean).toBeGreaterThan(0);
    expect(report.rejected).toBeGreaterThan(0);
    // No input makes the loader hang (deep nesting, huge strings).
    expect(report.slowestMs).toBeLessThan(10_000);
  }, 120_000);
});
