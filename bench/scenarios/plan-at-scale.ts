/**
 * Scenario 1: `acctsync plan` against an emulator holding 1,000 and 10,000 managed objects spread
 * over the kinds. The emulator runs in its own process and is seeded by acctsync itself (a sync at
 * high parallelism); the plan runs in a fresh process so that its peak RSS and CPU are its own.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PlanRunResult } from '../children/plan-run.js';
import { apiRequests, emulatorStats, resetEmulatorStats, seedAccount } from '../lib/acct.js';
import { runChild, startServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { round } from '../lib/stats.js';

export async function planAtScale(quick: boolean): Promise<ScenarioResult> {
  const sizes = quick ? [200, 1_000] : [1_000, 10_000];
  const rows: Array<Record<string, string | number>> = [];
  const notes: string[] = [];
  const targets: Record<string, boolean> = {};
  for (const n of sizes) {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-bench-plan-'));
    const server = await startServer({ mode: 'emulator' });
    try {
      const { objects, seconds: seedS, failed } = await seedAccount(dir, n, server.url, server.token);
      if (failed > 0) notes.push(`seeding ${n}: ${failed} failed`);
      await resetEmulatorStats(server.url, server.token);
      const r = await runChild<PlanRunResult>(
        'plan-run',
        { dir, url: server.url, token: server.token },
        600_000,
      );
      const stats = await emulatorStats(server.url, server.token);
      const ratio = r.requests / r.minimumRequests;
      rows.push({
        objects,
        seed_s: round(seedS, 1),
        load_s: round(r.loadMs / 1000, 2),
        plan_s: round(r.planMs / 1000, 2),
        fetch_s: round(r.fetchMs / 1000, 2),
        build_cpu_ms: round(r.buildCpuMs, 0),
        peak_rss_mb: round(r.maxRssMb, 0),
        requests: r.requests,
        emulator_saw: apiRequests(stats),
        minimum: r.minimumRequests,
        requests_per_minimum: round(ratio, 2),
        plan_ops: r.operations,
      });
      if (r.operations !== 0)
        notes.push(`${n}: the plan after seeding has ${r.operations} operations, expected 0`);
      targets[`${objects}: requests / minimum = 1.00`] = r.requests === r.minimumRequests;
      if (objects >= 10_000 || quick) {
        targets[`${objects}: plan (load + fetch + build) under 3 s`] = (r.loadMs + r.planMs) / 1000 < 3;
        targets[`${objects}: peak RSS under 300 MB`] = r.maxRssMb < 300;
      }
    } finally {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    }
  }
  return { scenario: 'plan-at-scale', rows, targets, notes };
}
