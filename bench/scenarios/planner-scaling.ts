/**
 * Scenario 6: the pure planner (`buildPlan`: match, diff, order; no HTTP) on synthetic states of
 * growing size, and the growth exponent of its time. Three shapes: steady state (everything exists
 * and matches: the plan every resync computes), first sync (nothing exists: all creates), and
 * removal (nothing desired, everything marked: all deletes, as after removing a config file).
 */
import { buildPlan } from '../../src/plan/index.js';
import type { ScenarioResult } from '../lib/report.js';
import { growthExponent, round } from '../lib/stats.js';
import { pureStates } from '../lib/synthetic.js';

const scope = 'bench';

type Shape = 'steady state' | 'all creates' | 'all deletes';

function timePlan(n: number, shape: Shape): { ms: number; ops: number; unchanged: number } {
  const states = pureStates(n, scope, shape === 'all creates' ? 'empty' : 'matching');
  const desired = shape === 'all deletes' ? { scope, objects: [] } : states.desired;
  const liveState = states.live;
  globalThis.gc?.();
  const t0 = performance.now();
  const plan = buildPlan(desired, liveState, { scope, adopt: false, noDelete: false, configPaths: [] });
  return { ms: performance.now() - t0, ops: plan.operations.length, unchanged: plan.summary.unchanged };
}

/** Above this projected time a size is skipped rather than run (the bench must stop by itself). */
const budgetMs = 90_000;

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
        'all deletes': [250, 500, 1_000, 2_000, 10_000],
      };
  const rows: Array<Record<string, string | number>> = [];
  const exponents: Partial<Record<Shape, number>> = {};
  const notes: string[] = [];
  for (const shape of Object.keys(sizes) as Shape[]) {
    timePlan(200, shape); // warm up the JIT
    const points: Array<{ n: number; ms: number }> = [];
    for (const n of sizes[shape]) {
      // Until two points give an exponent, assume n^1.5: between the linear hope and the quadratic
      // worst case, so that a quadratic shape is still cut off before it hangs the bench.
      const k = points.length >= 2 ? growthExponent(points) : 1.5;
      const last = points.at(-1);
      const projected = last === undefined ? 0 : last.ms * (n / last.n) ** Math.max(1, k);
      if (projected > budgetMs) {
        notes.push(`${shape} at ${n}: skipped, projected ${round(projected / 1000, 0)} s`);
        rows.push({ shape, n, ms: 'skipped', projected_s: round(projected / 1000, 0) });
        continue;
      }
      const r = timePlan(n, shape);
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
      await new Promise((done) => setImmediate(done));
    }
    exponents[shape] = round(growthExponent(points), 2);
  }
  const targets: Record<string, boolean> = {};
  for (const shape of Object.keys(sizes) as Shape[]) {
    rows.push({ shape, n: 'exponent', ms: exponents[shape] ?? Number.NaN });
    targets[`${shape}: growth close to linear (exponent <= 1.2)`] = (exponents[shape] ?? 9) <= 1.2;
  }
  return { scenario: 'planner-scaling', rows, targets, notes };
}
