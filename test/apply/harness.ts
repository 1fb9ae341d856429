/**
 * Test support for the applier: an emulator over real HTTP, a client that counts requests (and the
 * emulator's own counts), and helpers to plan and apply a config directory in one call.
 */
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, type ResponseEvent } from '../../src/api/index.js';
import { applyPlan, type ApplyOptions, type ApplyResult } from '../../src/apply/index.js';
import { startEmulator, type FaultOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { computePlan, type ComputedPlan } from '../../src/plan/index.js';

export const examplesDir = new URL('../../examples/', import.meta.url).pathname;

export interface Harness {
  readonly emulator: RunningEmulator;
  readonly client: ApiClient;
  readonly requests: ResponseEvent[];
  /** Requests other than GET seen by the client. */
  writes(): ResponseEvent[];
  plan(paths: readonly string[], options?: { adopt?: boolean; noDelete?: boolean }): Promise<ComputedPlan>;
  /** Plans `paths` and applies the plan. */
  sync(
    paths: readonly string[],
    options?: ApplyOptions & { noDelete?: boolean },
  ): Promise<{ computed: ComputedPlan; result: ApplyResult }>;
  close(): Promise<void>;
}

export async function startHarness(options: { faults?: FaultOptions } = {}): Promise<Harness> {
  const emulator = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    token: 'test-token',
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const requests: ResponseEvent[] = [];
  const client = new ApiClient({
    baseUrl: emulator.url,
    apiKey: emulator.token,
    onResponse: (e) => requests.push(e),
    // Retry waits scaled down: the emulator's Retry-After of 1 s would make fault tests slow.
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 20 },
    timeoutMs: 5_000,
  });
  const plan: Harness['plan'] = (paths, o = {}) =>
    computePlan({ paths, client, env: {}, adopt: o.adopt ?? false, noDelete: o.noDelete ?? false });
  return {
    emulator,
    client,
    requests,
    writes: () => requests.filter((r) => r.method !== 'GET'),
    plan,
    async sync(paths, o = {}) {
      const computed = await plan(paths, { noDelete: o.noDelete ?? false });
      const result = await applyPlan(computed.plan, computed.desired, client, o);
      return { computed, result };
    },
    async close() {
      await client.close();
      await emulator.close();
    },
  };
}

/** A copy of `examples/` in a temp directory, for tests that edit the config. */
export async function copyExamples(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-apply-'));
  await cp(examplesDir, dir, { recursive: true });
  return dir;
}
