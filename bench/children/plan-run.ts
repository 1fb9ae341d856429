/**
 * One plan in a fresh process, so that peak RSS and CPU are the planner's alone (the emulator runs
 * in another process): load the config, fetch the live state (requests counted), build the plan.
 */
import { buildPlan } from '../../src/plan/index.js';
import { fetchLiveState } from '../../src/live/index.js';
import { client, loadDir } from '../lib/acct.js';
import { countByCollection, minimumListRequests } from '../lib/minimum.js';

export interface PlanRunArg {
  readonly dir: string;
  readonly url: string;
  readonly token: string;
}

export interface PlanRunResult {
  readonly desiredObjects: number;
  readonly liveObjects: number;
  readonly loadMs: number;
  readonly fetchMs: number;
  readonly buildMs: number;
  readonly buildCpuMs: number;
  /** Fetch + build: what `acctsync plan` spends after the config is loaded. */
  readonly planMs: number;
  readonly requests: number;
  readonly minimumRequests: number;
  readonly maxRssMb: number;
  readonly operations: number;
  readonly unchanged: number;
}

async function main(): Promise<void> {
  const arg = JSON.parse(process.argv[2] ?? '{}') as PlanRunArg;
  let requests = 0;
  const t0 = performance.now();
  const desired = await loadDir(arg.dir);
  const t1 = performance.now();
  const api = client(arg.url, arg.token, { onResponse: () => requests++ });
  const live = await fetchLiveState(api, desired);
  const t2 = performance.now();
  const cpu0 = process.cpuUsage();
  const plan = buildPlan(desired, live, {
    scope: desired.scope,
    adopt: false,
    noDelete: false,
    configPaths: [arg.dir],
    now: new Date(),
  });
  const cpu = process.cpuUsage(cpu0);
  const t3 = performance.now();
  await api.close();
  const result: PlanRunResult = {
    desiredObjects: desired.objects.length,
    liveObjects: live.objects.length,
    loadMs: t1 - t0,
    fetchMs: t2 - t1,
    buildMs: t3 - t2,
    buildCpuMs: (cpu.user + cpu.system) / 1000,
    planMs: t3 - t1,
    requests,
    minimumRequests: minimumListRequests(live.kinds, countByCollection(live.objects)),
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    operations: plan.operations.length,
    unchanged: plan.summary.unchanged,
  };
  process.send?.(result);
}

void main();
