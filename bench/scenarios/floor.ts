/**
 * Scenario: `acctsync plan` (the built CLI, whole process) against the floor, the least work any
 * planner must do for the same plan (bench/children/floor.ts), on the same seeded account and the
 * same emulator child, alternating rounds in one run. Wall time from spawn to exit and peak RSS of
 * each process; the ratio is the median of the per-round ratios. The CLI's list requests are
 * counted by the emulator and checked against the minimum.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { kindsToFetch } from '../../src/live/index.js';
import { builtinKinds } from '../../src/resources/index.js';
import type { FloorArg, FloorResult } from '../children/floor.js';
import { apiRequests, emulatorStats, resetEmulatorStats, seedAccount } from '../lib/acct.js';
import { collectionOf, maxPageSize, pagesFor } from '../lib/minimum.js';
import { startServer, type ChildServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const cli = resolve('dist/cli/main.js');
const childDir = new URL('../children/', import.meta.url);
const peakRssPreload = new URL('peak-rss.js', childDir).href;

interface Run {
  readonly ms: number;
  readonly peakRssMb: number;
  readonly stdout: string;
}

/** Spawns `node args`, preloaded to report its peak RSS; wall time from spawn to exit. */
async function timed(args: readonly string[], env: NodeJS.ProcessEnv, scratch: string): Promise<Run> {
  const rssFile = join(scratch, `rss-${Math.random().toString(36).slice(2)}`);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', peakRssPreload, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env, BENCH_PEAK_RSS_FILE: rssFile },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}: ${stderr.slice(0, 2000)}`);
  const peakRssMb = Number(await readFile(rssFile, 'utf8')) / 1024;
  return { ms, peakRssMb, stdout };
}

/** The list requests a plan makes (every managed collection; embedded children come in their parent). */
function listsOfPlan(): FloorArg['lists'] {
  const lists = new Map<string, string>();
  for (const kind of kindsToFetch({ scope: 'bench', objects: [] })) {
    const d = collectionOf(kind);
    lists.set(d.path, d.listMember ?? '');
  }
  return [...lists].map(([path, member]) => ({ path, member }));
}

/** The config's shape the floor needs to pair nested items and variants with live records. */
function shapeOfConfig(): Pick<FloorArg, 'nested' | 'variants' | 'embedded'> {
  const nested: Array<FloorArg['nested'][number]> = [];
  const variants: string[] = [];
  const embedded: Array<FloorArg['embedded'][number]> = [];
  for (const d of builtinKinds.managed) {
    const config = d.config;
    if (config?.nestedIn !== undefined)
      nested.push({
        section: config.key,
        member: config.nestedIn.member,
        keyFields: [...(d.naturalKey?.fields ?? [])],
      });
    if (config?.variant !== undefined) variants.push(config.variant);
    if (d.parent?.embeddedAs !== undefined)
      embedded.push({ path: collectionOf(d.parent.kind).path, member: d.parent.embeddedAs });
  }
  return { nested, variants, embedded };
}

async function floorRun(server: ChildServer, dir: string, scratch: string): Promise<Run & FloorResult> {
  const files = (await readdir(dir)).sort().map((f) => join(dir, f));
  const arg: FloorArg = {
    files,
    url: server.url,
    token: server.token,
    lists: listsOfPlan(),
    pageSize: maxPageSize,
    concurrency: 8,
    ...shapeOfConfig(),
  };
  const run = await timed([fileURLToPath(new URL('floor.js', childDir)), JSON.stringify(arg)], {}, scratch);
  return { ...run, ...(JSON.parse(run.stdout) as FloorResult) };
}

async function planRun(
  server: ChildServer,
  dir: string,
  scratch: string,
): Promise<Run & { requests: number; unchanged: boolean }> {
  await resetEmulatorStats(server.url, server.token);
  const run = await timed(
    [cli, 'plan', dir, '--api-url', server.url],
    { SVC_API_KEY: server.token, SVC_API_URL: '' },
    scratch,
  );
  const requests = apiRequests(await emulatorStats(server.url, server.token));
  return { ...run, requests, unchanged: /no changes/i.test(run.stdout) };
}

async function measure(n: number, rounds: number): Promise<{ row: Record<string, number>; notes: string[] }> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-bench-floor-'));
  const scratch = await mkdtemp(join(tmpdir(), 'acctsync-bench-floor-rss-'));
  const server = await startServer({ mode: 'emulator' });
  const notes: string[] = [];
  try {
    const seeded = await seedAccount(dir, n, server.url, server.token);
    if (seeded.failed > 0) notes.push(`seeding ${n}: ${seeded.failed} failed`);
    // Untimed: the emulator renders and caches each record's JSON on its first list walk.
    await floorRun(server, dir, scratch);
    const floors: Array<Run & FloorResult> = [];
    const plans: Array<Run & { requests: number; unchanged: boolean }> = [];
    for (let i = 0; i < rounds; i++) {
      floors.push(await floorRun(server, dir, scratch));
      plans.push(await planRun(server, dir, scratch));
    }
    const floor = floors[0];
    const plan = plans[0];
    if (floor === undefined || plan === undefined) throw new Error('no rounds');
    const minimum = Object.values(floor.perList).reduce((s, count) => s + pagesFor(count), 0);
    if (!plans.every((p) => p.unchanged)) notes.push(`${n}: the plan after seeding is not empty`);
    if (floor.compared !== floor.desired) notes.push(`${n}: the floor matched ${floor.compared}`);
    if (floor.equal !== floor.compared)
      notes.push(`${n}: the floor found ${floor.compared - floor.equal} unequal`);
    const ratios = plans.map((p, i) => p.ms / (floors[i]?.ms ?? Number.NaN));
    return {
      row: {
        objects: seeded.objects,
        rounds,
        floor_s: round(median(floors.map((f) => f.ms)) / 1000, 2),
        plan_s: round(median(plans.map((p) => p.ms)) / 1000, 2),
        ratio: round(median(ratios), 2),
        floor_rss_mb: round(Math.max(...floors.map((f) => f.peakRssMb)), 0),
        plan_rss_mb: round(Math.max(...plans.map((p) => p.peakRssMb)), 0),
        floor_requests: floor.requests,
        plan_requests: Math.max(...plans.map((p) => p.requests)),
        minimum,
      },
      notes,
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
    await rm(scratch, { recursive: true, force: true });
  }
}

export async function floor(quick: boolean): Promise<ScenarioResult> {
  const sizes: Array<[number, number]> = quick
    ? [[1_000, 3]]
    : [
        [10_000, 5],
        [100_000, 1],
      ];
  const rows: Array<Record<string, number>> = [];
  const notes: string[] = [];
  const targets: Record<string, boolean> = {};
  for (const [n, rounds] of sizes) {
    const measured = await measure(n, rounds);
    const row = measured.row;
    rows.push(row);
    notes.push(...measured.notes);
    targets[`${row.objects}: plan requests = minimum`] = row.plan_requests === row.minimum;
    if (n === 10_000 || quick)
      targets[`${row.objects}: plan within 1.3x of the floor`] = (row.ratio ?? 0) <= 1.3;
    if (n === 100_000) targets[`${row.objects}: plan peak RSS <= 600 MB`] = (row.plan_rss_mb ?? 0) <= 600;
  }
  notes.push(
    'floor: YAML.parse, every list the plan reads paged at 100, fast-deep-equal per object (nested items too); its own process',
    'ratio: median of per-round ratios (plan wall time / floor wall time), spawn to exit, rounds alternating',
  );
  return { scenario: 'floor', rows, targets, notes };
}
