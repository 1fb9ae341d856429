/**
 * SECOND PATH (issue 46): kept for the peak RSS of a 100,000-object plan; without it V8's own
 * growth applies. It changes when V8 collects, never an output. Measured by `npm run bench -- --only second-paths`
 * (docs/performance.md, "Second paths").
 *
 * How far V8 lets the old generation grow before its next full collection. The YAML parser's
 * short-lived garbage (a result per token per level) outlives the young generation while a file
 * parses and is promoted; by default V8 then lets the old generation grow to up to four times what
 * the last full collection kept, so a 100,000-object plan peaked near 650 MB of RSS while no full
 * collection kept more than about 180 MB. 1.75 times what was kept bounds the peak
 * (docs/performance.md, "Bounded heap growth"). V8 reads the factor at each full collection, so
 * setting it as the load starts takes effect. It costs full collections, though: a config below
 * `boundedFromBytes` peaks low enough with V8's own growth, and plans faster with it (a
 * 10,000-object config, 0.6 MB of YAML: 1.24x the floor unbounded, 1.31x bounded).
 */
import { stat } from 'node:fs/promises';
import { setFlagsFromString } from 'node:v8';
import type { ExpandedFile } from './files.js';

const boundedFromBytes = 2 * 1024 * 1024;

let bounded = false;

/** Bounds the old generation's growth for the rest of the process when `files` are a large config. */
export async function boundHeapGrowthFor(files: readonly ExpandedFile[]): Promise<void> {
  if (bounded) return;
  // A file that cannot be read counts nothing here: reading it reports it.
  const sizes = await Promise.all(
    files.map((f) =>
      stat(f.absolute).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  if (sizes.reduce((sum, size) => sum + size, 0) < boundedFromBytes) return;
  bounded = true;
  setFlagsFromString('--heap-growing-percent=75');
}
