/** The bench harness computes what it reports: the request minimum, the growth fit, its synthetic states. */
import { describe, expect, it } from 'vitest';
import { countByCollection, minimumListRequests, pagesFor } from '../../bench/lib/minimum.js';
import { growthExponent, quantile } from '../../bench/lib/stats.js';
import { pureStates } from '../../bench/lib/synthetic.js';
import { buildPlan } from '../../src/plan/index.js';
import { kindsToFetch } from '../../src/live/index.js';
import { managedDescriptors } from '../../src/resources/index.js';

describe('minimum list requests', () => {
  it('is one page per 100 objects, and one request for an empty collection', () => {
    expect([0, 1, 100, 101, 250, 10_000].map(pagesFor)).toEqual([1, 1, 1, 2, 3, 100]);
  });

  it('counts each collection once: embedded routes cost nothing, backends are four collections', () => {
    const kinds = kindsToFetch({ scope: 's', objects: [] });
    const collections = new Set(managedDescriptors().map((d) => d.path));
    const routes = managedDescriptors().filter((d) => d.listMember === undefined).length;
    expect(minimumListRequests(kinds, new Map())).toBe(collections.size - routes);
    const counts = countByCollection([
      ...Array.from({ length: 250 }, () => ({ kind: 'ip_policies' as const })),
      ...Array.from({ length: 100 }, () => ({ kind: 'https_edges' as const })),
      ...Array.from({ length: 500 }, () => ({ kind: 'https_edge_routes' as const })),
    ]);
    expect(counts.get('/ip_policies')).toBe(250);
    expect(counts.has('/edges/https/{edge_id}/routes')).toBe(false);
    // ip_policies: 3 pages instead of 1; https_edges still 1 page; routes none.
    expect(minimumListRequests(kinds, counts)).toBe(collections.size - routes + 2);
  });
});

describe('statistics', () => {
  it('fits the growth exponent of power laws', () => {
    const sizes = [1_000, 10_000, 100_000];
    expect(growthExponent(sizes.map((n) => ({ n, ms: 0.01 * n })))).toBeCloseTo(1, 6);
    expect(growthExponent(sizes.map((n) => ({ n, ms: 1e-6 * n * n })))).toBeCloseTo(2, 6);
  });

  it('interpolates percentiles', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([5], 0.95)).toBe(5);
  });
});

describe('synthetic planner states', () => {
  it('a matching live state plans nothing; an empty one plans a create per object', () => {
    const options = { scope: 'bench', adopt: false, noDelete: false, configPaths: [], now: new Date() };
    const matching = pureStates(30, 'bench', 'matching');
    const steady = buildPlan(matching.desired, matching.live, options);
    expect(steady.operations).toEqual([]);
    expect(steady.summary.unchanged).toBe(30);
    const empty = pureStates(30, 'bench', 'empty');
    expect(buildPlan(empty.desired, empty.live, options).summary.create).toBe(30);
  });
});
