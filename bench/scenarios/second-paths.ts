/**
 * Scenario: what each second path of acctsync (a faster way beside a plain one, kept only for its
 * speed) saves on a figure a user feels: a command's wall time at the example size and at 10,000
 * objects, and a plan's peak RSS at 100,000. Each case runs the same built CLI with the path and
 * without it, alternating in one run; the figure is the median of the per-round ratios. A path is
 * kept only where it saves 10% or more of one such figure (issue 46); docs/performance.md records
 * the runs, those of the paths removed included.
 *
 * `--without DIR[,DIR...]` times every figure of this build against `DIR/dist/cli/main.js` instead
 * (other checkouts, built, each without one path): how the removed paths were measured.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { seedAccount } from '../lib/acct.js';
import { startServer, type ChildServer } from '../lib/process.js';
import type { Row, ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const childDir = new URL('../children/', import.meta.url);
const peakRssPreload = new URL('peak-rss.js', childDir).href;
const noHeapFlagPreload = new URL('no-heap-growth-flag.js', childDir).href;

/** How one side of a case starts the CLI. */
interface Way {
  readonly entry: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly preload?: readonly string[];
}

type Figure = 'wall' | 'peak RSS';

/** A command at one size, run against the account its size names. */
interface Workload {
  readonly name: string;
  readonly figure: Figure;
  readonly args: (account: ChildServer | undefined) => readonly string[];
  readonly account: 'none' | 'empty' | 'seeded 10k' | 'seeded 100k';
  readonly rounds: number;
}

interface Case {
  readonly path: string;
  readonly workload: Workload;
  readonly with: Way;
  readonly without: Way;
  /** The figure the path is kept for: its saving must reach 10%. */
  readonly keptFor?: boolean;
}

const built: Way = { entry: resolve('dist/cli/main.js') };

interface Run {
  readonly ms: number;
  readonly peakRssMb: number;
}

async function timed(way: Way, args: readonly string[], account: ChildServer | undefined): Promise<Run> {
  const scratch = await mkdtemp(join(tmpdir(), 'acctsync-bench-paths-'));
  const rssFile = join(scratch, 'rss');
  try {
    const preloads = [peakRssPreload, ...(way.preload ?? [])].flatMap((p) => ['--import', p]);
    const t0 = performance.now();
    const child = spawn(process.execPath, [...preloads, way.entry, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        SVC_API_URL: '',
        SVC_API_KEY: account?.token ?? '',
        ...way.env,
        BENCH_PEAK_RSS_FILE: rssFile,
      },
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    const ms = performance.now() - t0;
    if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(0, 2000)}`);
    return { ms, peakRssMb: Number(await readFile(rssFile, 'utf8')) / 1024 };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function workloads(quick: boolean, dirs: { k10: string; k100: string }): Record<string, Workload> {
  const startRounds = quick ? 5 : 15;
  const apiUrl = (a: ChildServer | undefined): string[] => ['--api-url', a?.url ?? ''];
  return {
    help: {
      name: '`acctsync --help`',
      figure: 'wall',
      args: () => ['--help'],
      account: 'none',
      rounds: startRounds,
    },
    planHelp: {
      name: '`acctsync plan --help`',
      figure: 'wall',
      args: () => ['plan', '--help'],
      account: 'none',
      rounds: startRounds,
    },
    validate: {
      name: '`validate examples/account/`',
      figure: 'wall',
      args: () => ['validate', 'examples/account/'],
      account: 'none',
      rounds: startRounds,
    },
    planExample: {
      name: '`plan examples/account/` (empty account)',
      figure: 'wall',
      args: (a) => ['plan', 'examples/account/', ...apiUrl(a)],
      account: 'empty',
      rounds: quick ? 5 : 11,
    },
    plan10k: {
      name: `\`plan\` of ${quick ? '1,000' : '10,000'} objects (matching account)`,
      figure: 'wall',
      args: (a) => ['plan', dirs.k10, ...apiUrl(a)],
      account: 'seeded 10k',
      rounds: quick ? 3 : 7,
    },
    rss100k: {
      name: `\`plan\` of ${quick ? '5,000' : '100,000'} objects (matching account)`,
      figure: 'peak RSS',
      args: (a) => ['plan', dirs.k100, ...apiUrl(a)],
      account: 'seeded 100k',
      rounds: quick ? 1 : 3,
    },
  };
}

function cases(w: Record<string, Workload>, without: readonly string[] | undefined): Case[] {
  const unbundled: Way = { entry: resolve('dist/cli/dispatch.js') };
  const noCodeCache: Way = { ...built, env: { NODE_DISABLE_COMPILE_CACHE: '1' } };
  const noHeapFlag: Way = { ...built, preload: [noHeapFlagPreload] };
  if (without !== undefined) {
    return without.flatMap((dir) =>
      Object.values(w).map((workload) => ({
        path: `without: ${basename(resolve(dir))}`,
        workload,
        with: built,
        without: { entry: join(resolve(dir), 'dist/cli/main.js') },
      })),
    );
  }
  const list: Case[] = [];
  const startFigures = [w.help, w.planHelp, w.validate, w.planExample];
  for (const workload of startFigures) {
    if (workload === undefined) continue;
    list.push({
      path: 'bundle + code cache (vs the ES modules of dist/)',
      workload,
      with: built,
      without: unbundled,
      keptFor: workload === w.validate,
    });
    list.push({
      path: 'code cache (bundle kept)',
      workload,
      with: built,
      without: noCodeCache,
      keptFor: workload === w.validate,
    });
  }
  for (const workload of [w.plan10k, w.rss100k]) {
    if (workload === undefined) continue;
    list.push({
      path: 'old-generation growth bound (heap-growth.ts)',
      workload,
      with: built,
      without: noHeapFlag,
      keptFor: workload === w.rss100k,
    });
  }
  return list;
}

/**
 * Times the cases of one workload, which all start from the same build: each round runs that build
 * once, then each case's other way, so every ratio pairs runs made back to back.
 */
async function measure(here: readonly Case[], account: ChildServer | undefined): Promise<Row[]> {
  const first = here[0];
  if (first === undefined) return [];
  const { workload } = first;
  const args = workload.args(account);
  const timeAll = async (): Promise<{ with: Run; without: Run[] }> => {
    const withRun = await timed(first.with, args, account);
    const withoutRuns: Run[] = [];
    for (const c of here) withoutRuns.push(await timed(c.without, args, account));
    return { with: withRun, without: withoutRuns };
  };
  // Untimed: files in the page cache, code caches written, the emulator's list JSON rendered.
  await timeAll();
  const rounds: Array<{ with: Run; without: Run[] }> = [];
  for (let i = 0; i < workload.rounds; i++) rounds.push(await timeAll());
  const value = (r: Run): number => (workload.figure === 'wall' ? r.ms : r.peakRssMb);
  const unit = workload.figure === 'wall' ? 'ms' : 'MB';
  return here.map((c, k) => {
    const withValues = rounds.map((r) => value(r.with));
    const withoutValues = rounds.map((r) => value(r.without[k] ?? r.with));
    const ratio = median(withValues.map((v, i) => v / (withoutValues[i] ?? v)));
    return {
      path: c.path,
      figure: `${workload.figure}, ${workload.name}`,
      rounds: workload.rounds,
      with: `${round(median(withValues), 0)} ${unit}`,
      without: `${round(median(withoutValues), 0)} ${unit}`,
      ratio: round(ratio, 3),
      saving: `${round((1 - ratio) * 100, 1)}%`,
    };
  });
}

export async function secondPaths(quick: boolean): Promise<ScenarioResult> {
  const { values } = parseArgs({
    options: { quick: { type: 'boolean' }, only: { type: 'string' }, without: { type: 'string' } },
  });
  const k10 = await mkdtemp(join(tmpdir(), 'acctsync-bench-paths-10k-'));
  const k100 = await mkdtemp(join(tmpdir(), 'acctsync-bench-paths-100k-'));
  const w = workloads(quick, { k10, k100 });
  const all = cases(w, values.without?.split(','));
  const rows: Row[] = [];
  const targets: Record<string, boolean> = {};
  const notes: string[] = [];
  const accounts: Array<[Workload['account'], number]> = [
    ['none', 0],
    ['empty', 0],
    ['seeded 10k', quick ? 1_000 : 10_000],
    ['seeded 100k', quick ? 5_000 : 100_000],
  ];
  try {
    for (const [account, n] of accounts) {
      const here = all.filter((c) => c.workload.account === account);
      if (here.length === 0) continue;
      const server = account === 'none' ? undefined : await startServer({ mode: 'emulator' });
      try {
        if (server !== undefined && n > 0) {
          const seeded = await seedAccount(
            account === 'seeded 10k' ? k10 : k100,
            n,
            server.url,
            server.token,
          );
          if (seeded.failed > 0) notes.push(`seeding ${n}: ${seeded.failed} failed`);
        }
        for (const workload of new Set(here.map((c) => c.workload))) {
          const ofWorkload = here.filter((c) => c.workload === workload);
          const measured = await measure(ofWorkload, server);
          rows.push(...measured);
          ofWorkload.forEach((c, k) => {
            const row = measured[k];
            if (c.keptFor === true && row !== undefined)
              targets[`${c.path}: saves >= 10% of ${row.figure}`] = Number(row.ratio) <= 0.9;
          });
        }
      } finally {
        await server?.stop();
      }
    }
  } finally {
    await rm(k10, { recursive: true, force: true });
    await rm(k100, { recursive: true, force: true });
  }
  notes.push(
    'ratio: median of per-round ratios (with / without), rounds alternating; saving = 1 - ratio',
    'wall: spawn to exit; peak RSS: the process maximum, read at exit',
  );
  return { scenario: 'second-paths', rows, targets, notes };
}
