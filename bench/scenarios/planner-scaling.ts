/**
 * Scenario 6: the pure planner (`buildPlan`: match, diff, order; no HTTP) on synthetic states of
 * growing size, and the growth exponent of its time. Three shapes: steady state (everything exists
 * and matches: the plan every resync computes), first sync (nothing exists: all creates), and
 * removal (nothing desired, everything marked: all deletes, as after removing a config file).
 * Each size runs in its own process, killed at the time budget.
 */
import type { PurePlanResult, Shape } from '../children/pure-plan.js';
import { runChild } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { growthExponent, round } from '../lib/stats.js';

/**
 * A size still running after this long is stopped and reported as over the budget. All creates get
 * longer: at 100,000 a linear planner needs about 30 s here, so only a longer budget can tell.
 */
const budgetMs: Record<Shape, number> = {
  'steady state': 60_000,
  'all creates': 90_000,
  'all deletes': 30_000,
};

export async function plannerScaling(quick: boolean): Promise<ScenarioResult> {
  const sizes: Record<Shape, number[]> = quick
    ? {
        'steady state': [1_000, 3_000, 10_000],
        'all creates': [1_000, 3_000, 10_000],
        'all deletes': [250, 500, 1_000],
      }
    : {
        'steady state': [1_000, 10_000, 100_000],
        'all creates': [1_000, 10_000, 100_000],
        'all deletes': [250, 1_000, 10_000],
      };
  const rows: Array<Record<string, string | number>> = [];
  const exponents: Partial<Record<Shape, number>> = {};
  const notes: string[] = [];
  for (const shape of Object.keys(sizes) as Shape[]) {
    const budget = quick ? 15_000 : budgetMs[shape];
    const points: Array<{ n: number; ms: number }> = [];
    let over = false;
    let lowerBound = Number.NaN;
    for (const n of sizes[shape]) {
      if (over) {
        rows.push({ shape, n, ms: 'not run' });
        continue;
      }
      let r: PurePlanResult;
      try {
        r = await runChild<PurePlanResult>('pure-plan', { n, shape }, budget);
      } catch {
        over = true;
        // Slower than the budget: the growth from the last finished size is at least this steep.
        const last = points.at(-1);
        lowerBound = last === undefined ? Number.NaN : Math.log(budget / last.ms) / Math.log(n / last.n);
        rows.push({ shape, n, ms: `> ${budget / 1000} s`, exponent_at_least: round(lowerBound, 2) });
        notes.push(`${shape} at ${n}: stopped after ${budget / 1000} s`);
        continue;
      }
      const expected = shape === 'steady state' ? { ops: 0, unchanged: n } : { ops: n, unchanged: 0 };
      if (r.ops !== expected.ops || r.unchanged !== expected.unchanged) {
        notes.push(
          `${shape} at ${n}: expected ${JSON.stringify(expected)}, got ops ${r.ops}, unchanged ${r.unchanged}`,
        );
      }
      points.push({ n, ms: r.ms });
      rows.push({
        shape,
        n,
        ms: round(r.ms, 1),
        us_per_object: round((r.ms * 1000) / n, 1),
        operations: r.ops,
      });
    }
    // From the sizes that finished, unless a stopped size proves the growth steeper.
    const fitted = growthExponent(points);
    exponents[shape] = round(Number.isNaN(lowerBound) ? fitted : Math.max(fitted, lowerBound), 2);
  }
  const targets: Record<string, boolean> = {};
  for (const shape of Object.keys(sizes) as Shape[]) {
    rows.push({ shape, n: 'exponent', ms: exponents[shape] ?? Number.NaN });
    targets[`${shape}: growth close to linear (exponent <= 1.2)`] = (exponents[shape] ?? 9) <= 1.2;
  }
  return { scenario: 'planner-scaling', rows, targets, notes };
}
