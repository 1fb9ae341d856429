/** Small statistics helpers: percentiles and the log-log growth exponent. */

/** The `p`-quantile (0..1) of `values` by linear interpolation; NaN when empty. */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (b - a) * (at - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

/**
 * The exponent k of `time ~ c * n^k`: the least-squares slope of log(time) against log(n).
 * 1 is linear, 2 quadratic. NaN with fewer than two points.
 */
export function growthExponent(points: ReadonlyArray<{ n: number; ms: number }>): number {
  const xs = points.map((p) => Math.log(p.n));
  const ys = points.map((p) => Math.log(Math.max(p.ms, 1e-6)));
  if (xs.length < 2) return Number.NaN;
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length;
  const my = ys.reduce((s, y) => s + y, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? Number.NaN : num / den;
}

/** Rounds to `digits` decimals, for printing. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
