/**
 * Test support for the applier: the one test account (`test/support/account.ts`) with helpers to
 * plan and apply a config directory in one call.
 */
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient, ResponseEvent } from '../../src/api/index.js';
import { applyPlan, type ApplyOptions, type ApplyResult } from '../../src/apply/index.js';
import type { FaultOptions } from '../../src/emulator/index.js';
import { loadDesiredState } from '../../src/config/index.js';
import { parseMetadata } from '../../src/plan/index.js';
import { computePlan, planFor, type ComputedPlan } from '../../src/pipeline/index.js';
import { descriptorOf, managedDescriptors, type DesiredState } from '../../src/resources/index.js';
import { startAccount, type TestAccount } from '../support/account.js';

export const examplesDir = new URL('../../examples/', import.meta.url).pathname;

/** An account with the applier's helpers. */
export interface Harness extends TestAccount {
  /** Requests other than GET seen by the client. */
  writes(): ResponseEvent[];
  plan(paths: readonly string[], options?: { adopt?: boolean; noDelete?: boolean }): Promise<ComputedPlan>;
  /** Plans `paths` and applies the plan. */
  sync(
    paths: readonly string[],
    options?: ApplyOptions & { noDelete?: boolean },
  ): Promise<{ computed: ComputedPlan; result: ApplyResult }>;
}

export async function startHarness(
  options: { faults?: FaultOptions; echo?: boolean } = {},
): Promise<Harness> {
  const account = await startAccount(options);
  const { client } = account;
  const plan: Harness['plan'] = (paths, o = {}) =>
    computePlan({ paths, client, env: {}, adopt: o.adopt ?? false, noDelete: o.noDelete ?? false });
  return {
    ...account,
    writes: () => account.requests.filter((r) => r.method !== 'GET'),
    plan,
    async sync(paths, o = {}) {
      const computed = await plan(paths, { noDelete: o.noDelete ?? false });
      const result = await applyPlan(computed.plan, computed.desired, client, o);
      return { computed, result };
    },
  };
}

/** A copy of `examples/` in a temp directory, for tests that edit the config. */
export async function copyExamples(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-apply-'));
  await cp(examplesDir, dir, { recursive: true });
  // A checkout: examples/account reads ../pki and ../secrets, inside the work tree.
  await mkdir(join(dir, '.git'));
  return dir;
}

/** The examples' desired state, loaded once per call (tests mutate copies of it). */
export async function examplesState(): Promise<DesiredState> {
  const loaded = await loadDesiredState([join(examplesDir, 'account')], { env: {} });
  if (!loaded.ok) throw new Error(`examples do not load: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.state;
}

/** Plans `desired` against the emulator and applies the plan. */
export async function syncState(
  h: Harness,
  desired: DesiredState,
  options: ApplyOptions = {},
): Promise<{ computed: ComputedPlan; result: ApplyResult }> {
  const computed = await planFor(desired, h.client);
  const result = await applyPlan(computed.plan, computed.desired, h.client, options);
  return { computed, result };
}

/** `state` with `change` applied to the fields of the object `key` (a copy; `state` is untouched). */
export function withFields(
  state: DesiredState,
  key: string,
  change: (fields: Record<string, unknown>) => Record<string, unknown>,
): DesiredState {
  if (!state.objects.some((o) => o.key === key)) throw new Error(`no object ${key}`);
  return {
    ...state,
    objects: state.objects.map((o) =>
      o.key === key ? { ...o, fields: change(structuredClone({ ...o.fields })) } : o,
    ),
  };
}

/**
 * Every managed object in the emulator, keyed by its marker key, with how many live objects carry
 * that key: a count above 1 is a duplicate.
 */
export async function markerCounts(client: ApiClient, scope: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const add = (record: Record<string, unknown>): void => {
    const marker = parseMetadata(typeof record.metadata === 'string' ? record.metadata : undefined).marker;
    if (marker?.scope === scope) counts.set(marker.key, (counts.get(marker.key) ?? 0) + 1);
  };
  for (const d of managedDescriptors()) {
    if (!d.operations.list || d.listMember === undefined || d.path.includes('{')) continue;
    for (const record of await client.listAll<Record<string, unknown>>(d.path, d.listMember)) {
      add(record);
      for (const [member, value] of Object.entries(record)) {
        if (member === descriptorOf('https_edge_routes').parent?.embeddedAs && Array.isArray(value)) {
          for (const child of value as Record<string, unknown>[]) add(child);
        }
      }
    }
  }
  return counts;
}
