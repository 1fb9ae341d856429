/**
 * The loader fuzz shared by the fast and soak suites: mutate one example file at a time and load.
 * Every case must end in a clean result or diagnostics that each carry a location; the loader must
 * never throw anything else and never reach the network.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  loadDesiredState,
  renderDiagnostic,
  type Diagnostic,
} from '../../../src/config/index.js';
import { examplesDir } from '../../support/cli.js';
import { mutateMany } from './mutate.js';
import { createRng } from './prng.js';

export interface FuzzReport {
  readonly cases: number;
  readonly clean: number;
  readonly rejected: number;
  /** Cases that threw something other than a ConfigError, or produced a diagnostic without a location. */
  readonly failures: string[];
  readonly slowestMs: number;
}

function badLocation(d: Diagnostic): string | undefined {
  if (typeof d.file !== 'string' || d.file === '') return 'no file';
  if (!Number.isInteger(d.line) || d.line < 1) return `line ${d.line}`;
  if (!Number.isInteger(d.column) || d.column < 1) return `column ${d.column}`;
  if (typeof d.message !== 'string' || d.message === '') return 'no message';
  return undefined;
}

/**
 * Runs `cases` mutations from `seed`. `wholeEvery`: one case in that many loads the whole directory
 * (cross-file references, duplicates across files); the others load the mutated file alone, which
 * is several times faster and exercises the same parsing and checks.
 */
export async function fuzzLoader(seed: number, cases: number, wholeEvery: number): Promise<FuzzReport> {
  const rng = createRng(seed);
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-fuzz-'));
  await cp(examplesDir, dir, { recursive: true });
  // A checkout: examples/account reads ../pki and ../secrets, inside the work tree.
  await mkdir(join(dir, '.git'));
  const accountDir = join(dir, 'account');
  const files = (await readdir(accountDir)).filter((f) => f.endsWith('.yaml')).sort();
  const originals = new Map<string, string>();
  for (const f of files) originals.set(f, await readFile(join(accountDir, f), 'utf8'));

  const failures: string[] = [];
  let clean = 0;
  let rejected = 0;
  let slowestMs = 0;
  // The loader has no client; this proves no code path of it falls back on fetch either.
  const realFetch = globalThis.fetch;
  globalThis.fetch = () => Promise.reject(new Error('the loader must not call the network'));
  try {
    for (let i = 0; i < cases; i++) {
      const file = rng.pick(files);
      const original = originals.get(file) ?? '';
      const { text, how } = mutateMany(original, rng);
      const path = join(accountDir, file);
      await writeFile(path, text);
      const whole = i % wholeEvery === 0;
      const label = `case ${i} (seed ${seed}) ${file} [${how.join('; ')}]`;
      const started = performance.now();
      try {
        const result = await loadDesiredState([whole ? accountDir : path], { env: {}, cwd: dir });
        if (result.ok) {
          clean++;
          if (!Array.isArray(result.state.objects)) failures.push(`${label}: ok without objects`);
        } else {
          rejected++;
          if (!result.diagnostics.some((d) => d.severity === 'error'))
            failures.push(`${label}: not ok, no error`);
          for (const d of result.diagnostics) {
            const bad = badLocation(d);
            if (bad !== undefined)
              failures.push(`${label}: diagnostic without location (${bad}): ${d.message}`);
            renderDiagnostic(d, text);
          }
        }
      } catch (err) {
        if (err instanceof ConfigError && err.diagnostics.every((d) => badLocation(d) === undefined))
          rejected++;
        else
          failures.push(`${label}: threw ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      }
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await writeFile(path, original);
    }
  } finally {
    globalThis.fetch = realFetch;
    await rm(dir, { recursive: true, force: true });
  }
  return { cases, clean, rejected, failures, slowestMs };
}

/** Relative imports reachable from `entry`, and the bare modules they import. */
export async function importGraph(
  entry: string,
): Promise<{ files: Map<string, string>; bare: Map<string, string[]> }> {
  const files = new Map<string, string>();
  const bare = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() ?? '';
    if (files.has(file)) continue;
    const text = await readFile(file, 'utf8');
    files.set(file, text);
    for (const m of text.matchAll(
      /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g,
    )) {
      const spec = m[1] ?? m[2] ?? '';
      if (spec.startsWith('.')) queue.push(new URL(spec.replace(/\.js$/, '.ts'), `file://${file}`).pathname);
      else bare.set(spec, [...(bare.get(spec) ?? []), file]);
    }
  }
  return { files, bare };
}
