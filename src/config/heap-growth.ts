/**
 * How far V8 lets the old generation grow before its next full collection. The YAML parser's
 * short-lived garbage (a result per token per level) outlives the young generation while a file
 * parses and is promoted; by default V8 then lets the old generation grow to up to four times what
 * the last full collection kept, so a 100,000-object plan peaked near 650 MB of RSS while no full
 * collection kept more than about 180 MB. 1.75 times what was kept bounds the peak
 * (docs/performance.md, "Bounded heap growth"). V8 reads the factor at each full collection, so
 * setting it as the load starts takes effect.
 */
import { setFlagsFromString } from 'node:v8';

let bounded = false;

/** Bounds the old generation's growth for the rest of the process; idempotent. */
export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  setFlagsFromString('--heap-growing-percent=75');
}
