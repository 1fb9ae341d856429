/**
 * Scenario 2: 1,000 creates applied by acctsync at parallelism 1, 8 and 32, against a bare undici
 * loop sending the same POSTs (same bodies, headers and concurrency) to a fresh emulator in the
 * same run. acctsync uses the client exactly as the CLI builds it for that parallelism.
 */
import { ApiClient } from '../../src/api/index.js';
import { applyPlan } from '../../src/apply/index.js';
import { clientOptionsFor } from '../../src/cli/connection.js';
import { type Plan } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { generateLoad } from '../lib/load.js';
import { startServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const scope = 'bench';

export function policies(n: number, tag: string): DesiredState {
  return {
    scope,
    objects: Array.from({ length: n }, (_, i) => ({
      kind: 'ip_policies' as const,
      key: `ip_policies/${tag}${i}`,
      name: `${tag}${i}`,
      fields: { description: `policy ${tag}${i}` },
      sensitive: [],
      source: { file: 'bench.yaml', line: i + 1, column: 3 },
    })),
  };
}

/** Requests/s of acctsync applying `desired` (planned first, not timed) on a fresh emulator. */
async function acctsyncRun(
  desired: DesiredState,
  parallelism: number,
): Promise<{ perSecond: number; cpuMsPerOp: number; failed: number; plan: Plan }> {
  const server = await startServer({ mode: 'emulator' });
  try {
    const api = new ApiClient({
      baseUrl: server.url,
      apiKey: server.token,
      // The client exactly as the CLI builds it for this --parallelism.
      ...clientOptionsFor(parallelism),
    });
    const { plan } = await planFor(desired, api);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const result = await applyPlan(plan, desired, api, { parallelism });
    const cpu = process.cpuUsage(cpu0);
    const seconds = (performance.now() - t0) / 1000;
    await api.close();
    const ops = plan.operations.length;
    return {
      perSecond: ops / seconds,
      cpuMsPerOp: (cpu.user + cpu.system) / 1000 / ops,
      failed: result.counts.failed,
      plan,
    };
  } finally {
    await server.stop();
  }
}

/** Requests/s of a bare loop POSTing the plan's create bodies on a fresh emulator. */
async function bareRun(
  plan: Plan,
  desired: DesiredState,
  concurrency: number,
): Promise<{ perSecond: number; cpuMsPerRequest: number }> {
  const server = await startServer({ mode: 'emulator' });
  try {
    const fields = new Map(desired.objects.map((o) => [o.key, o.fields]));
    const bodies = plan.operations.map((op) =>
      JSON.stringify({ ...fields.get(op.key), metadata: op.requests[0]?.body?.metadata }),
    );
    const headers = {
      authorization: `Bearer ${server.token}`,
      'svc-version': '2',
      accept: 'application/json',
      'content-type': 'application/json',
    };
    const r = await generateLoad(
      server.url,
      (i) => ({ method: 'POST', path: '/ip_policies', headers, body: bodies[i] ?? '{}' }),
      { concurrency, maxRequests: bodies.length },
    );
    if (r.errors > 0 || (r.statuses['201'] ?? 0) !== bodies.length) {
      throw new Error(`bare loop: ${JSON.stringify(r.statuses)}, ${r.errors} errors`);
    }
    return { perSecond: r.perSecond, cpuMsPerRequest: r.clientCpuMsPerRequest };
  } finally {
    await server.stop();
  }
}

export async function applyThroughput(quick: boolean): Promise<ScenarioResult> {
  const n = quick ? 200 : 1_000;
  // The machine is shared: each round runs bare loop and acctsync back to back, and the ratio is
  // the median over rounds of the ratio within a round.
  const rounds = quick ? 1 : 3;
  const rows: Array<Record<string, string | number>> = [];
  const targets: Record<string, boolean> = {};
  const desired = policies(n, 'p');
  // Untimed: the first rounds would otherwise time acctsync's code cold (compiled as it runs) against
  // a bare loop that runs after it, on an undici already warmed by acctsync. The client sends
  // through undici's dispatch, the bare loop through request() and its response stream, so each
  // side warms its own code: about 3,000 requests before its CPU per request settles.
  const warmup = policies(n, 'w');
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const warm = await acctsyncRun(warmup, 1);
    await bareRun(warm.plan, warmup, 1);
  }
  for (const parallelism of [1, 8, 32]) {
    const bare: number[] = [];
    const bareCpu: number[] = [];
    const cliCpu: number[] = [];
    const cli: number[] = [];
    let failed = 0;
    for (let round = 0; round < rounds; round++) {
      const c = await acctsyncRun(desired, parallelism);
      const b = await bareRun(c.plan, desired, parallelism);
      bare.push(b.perSecond);
      bareCpu.push(b.cpuMsPerRequest);
      cliCpu.push(c.cpuMsPerOp);
      cli.push(c.perSecond);
      failed += c.failed;
    }
    const ratio = median(cli.map((c, i) => c / (bare[i] ?? Number.NaN)));
    rows.push({
      parallelism,
      creates: n,
      rounds,
      bare_rps: round(median(bare), 0),
      acctsync_rps: round(median(cli), 0),
      ratio: round(ratio, 2),
      client_cpu_ms_per_req_bare: round(median(bareCpu), 3),
      client_cpu_ms_per_op_acctsync: round(median(cliCpu), 3),
      failed,
    });
    targets[`parallelism ${parallelism}: acctsync >= 0.9 of the bare loop`] = ratio >= 0.9;
  }
  return {
    scenario: 'apply-throughput',
    rows,
    targets,
    notes: [
      'rates are medians over rounds; ratios are medians of the ratio within each round',
      'acctsync_rps: the client as the CLI builds it for the parallelism (concurrency max(8, parallelism))',
      'client_cpu_*: CPU time of the client process per request/operation; less sensitive to machine load than rates',
    ],
  };
}
