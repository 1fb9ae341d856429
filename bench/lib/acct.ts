/** acctsync as a library, the way the CLI wires it: load, plan, apply; and the emulator's stats. */
import { request } from 'undici';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
import { applyPlan, type ApplyResult } from '../../src/apply/index.js';
import { loadDesiredState } from '../../src/config/index.js';
import { planFor } from '../../src/pipeline/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import type { EmulatorStats } from '../../src/emulator/index.js';
import { writeAccount } from './synthetic.js';

/** Loads a config directory; throws with the first diagnostics when it does not load. */
export async function loadDir(dir: string): Promise<DesiredState> {
  const loaded = await loadDesiredState([dir]);
  if (!loaded.ok) {
    throw new Error(`bench config does not load: ${JSON.stringify(loaded.diagnostics.slice(0, 3))}`);
  }
  return loaded.state;
}

export function client(
  url: string,
  token: string,
  options: Partial<Omit<ApiClientOptions, 'baseUrl' | 'apiKey'>> = {},
): ApiClient {
  return new ApiClient({ baseUrl: url, apiKey: token, ...options });
}

/** Plans `desired` against the API and applies it (no guard: seeding may create thousands). */
export async function sync(
  desired: DesiredState,
  api: ApiClient,
  parallelism: number,
): Promise<{ result: ApplyResult; operations: number }> {
  const { plan } = await planFor(desired, api);
  const result = await applyPlan(plan, desired, api, { parallelism });
  return { result, operations: plan.operations.length };
}

/**
 * Writes a synthetic config of about `n` objects under `dir` ({@link writeAccount}, scope `bench`)
 * and syncs it into the account at `url` at parallelism 32: the account a plan then finds matching.
 */
export async function seedAccount(
  dir: string,
  n: number,
  url: string,
  token: string,
): Promise<{ objects: number; seconds: number; failed: number }> {
  const objects = await writeAccount(dir, n, 'bench');
  const desired = await loadDir(dir);
  const seedClient = client(url, token, { concurrency: 32 });
  const t0 = performance.now();
  const seeded = await sync(desired, seedClient, 32);
  const seconds = (performance.now() - t0) / 1000;
  await seedClient.close();
  return { objects, seconds, failed: seeded.result.counts.failed };
}

/** The emulator's request counters (control surface, not counted in them). */
export async function emulatorStats(url: string, token: string): Promise<EmulatorStats> {
  const res = await request(`${url}/_emulator/stats`, { headers: { authorization: `Bearer ${token}` } });
  if (res.statusCode !== 200) throw new Error(`stats: HTTP ${res.statusCode}: ${await res.body.text()}`);
  return (await res.body.json()) as EmulatorStats;
}

export async function resetEmulatorStats(url: string, token: string): Promise<void> {
  const res = await request(`${url}/_emulator/stats`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  await res.body.dump();
}

/** Requests in `stats` with this status (429s, ...). */
export function countStatus(stats: EmulatorStats, status: number): number {
  return stats.routes.filter((r) => r.status === status).reduce((s, r) => s + r.count, 0);
}

/** API requests in `stats`, the control surface (`/_emulator/...`) left out. */
export function apiRequests(stats: EmulatorStats): number {
  return stats.routes.filter((r) => !r.route.startsWith('/_emulator')).reduce((s, r) => s + r.count, 0);
}
