/**
 * Test support for the applier: the one test account (`test/support/account.ts`) with helpers to
 * plan and apply a config directory or a desired state in one call, through `runOnce` as the
 * commands run it (policy and guards included).
 */
import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiClient, ResponseEvent } from '../../src/api/index.js';
import type { ApplyResult, GuardOptions } from '../../src/apply/index.js';
import { defaultParallelism } from '../../src/apply/defaults.js';
import type { FaultOptions } from '../../src/emulator/index.js';
import { loadDesiredState } from '../../src/config/index.js';
import { parseMetadata } from '../../src/plan/index.js';
import { computePlan, runOnce, type ComputedPlan, type RunInputs } from '../../src/pipeline/index.js';
import type { PolicyRule } from '../../src/policy/index.js';
import {
  builtinKinds,
  descriptorOf,
  managedDescriptors,
  type DesiredState,
  type KindRegistry,
} from '../../src/resources/index.js';
import { startAccount, type TestAccount } from '../support/account.js';

export const examplesDir = new URL('../../examples/', import.meta.url).pathname;

/** How a test syncs: the flags of `sync` it sets. */
export interface SyncOptions {
  readonly parallelism?: number;
  readonly continueOnError?: boolean;
  readonly noDelete?: boolean;
  /** `--adopt`: unmarked objects of the config's natural keys are taken over. */
  readonly adopt?: boolean;
  readonly guards?: Partial<GuardOptions>;
  readonly tokenOutput?: string;
  /** A plan saved for review (`apply plan.json`): applied only when a plan made now holds the same. */
  readonly saved?: ComputedPlan['plan'];
  /** `--policy` rules, loaded: a broken error rule refuses the run. */
  readonly policies?: readonly PolicyRule[];
}

/** An account with the applier's helpers. */
export interface Harness extends TestAccount {
  /** The kinds its emulator serves and its runs read, plan and write by. */
  readonly kinds: KindRegistry;
  /** Requests other than GET seen by the client. */
  writes(): ResponseEvent[];
  plan(paths: readonly string[], options?: { adopt?: boolean; noDelete?: boolean }): Promise<ComputedPlan>;
  /** Plans `paths` and applies the plan, as `sync` does. */
  sync(
    paths: readonly string[],
    options?: SyncOptions,
  ): Promise<{ computed: ComputedPlan; result: ApplyResult }>;
}

/**
 * One run of `runOnce` that applies on `client`, as `sync` (or `apply plan.json` with `saved`)
 * runs it. A refusal (a guard, a policy rule) is thrown, as the command's error is.
 */
async function syncRun(
  client: ApiClient,
  kinds: KindRegistry,
  desired: RunInputs['desired'],
  options: SyncOptions,
): Promise<{ computed: ComputedPlan; result: ApplyResult }> {
  const run = await runOnce({
    desired,
    kinds,
    account: () => Promise.resolve({ client }),
    planning: { adopt: options.adopt ?? false, noDelete: options.noDelete ?? false, now: new Date() },
    guards: { force: false, ...options.guards },
    ...(options.saved === undefined ? {} : { saved: options.saved }),
    ...(options.policies === undefined ? {} : { policies: () => Promise.resolve(options.policies ?? []) }),
    apply: {
      parallelism: options.parallelism ?? defaultParallelism,
      continueOnError: options.continueOnError ?? false,
      tokenOutput: options.tokenOutput,
    },
  });
  if (run.status === 'refused' && run.refusal !== undefined) throw run.refusal;
  if (run.status !== 'applied') throw new Error(`the run ended ${run.status}`);
  return { computed: { plan: run.plan, desired: run.desired, live: run.live }, result: run.applied };
}

export async function startHarness(
  options: { faults?: FaultOptions; echo?: boolean; kinds?: KindRegistry; certDelayMs?: number } = {},
): Promise<Harness> {
  const kinds = options.kinds ?? builtinKinds;
  const account = await startAccount({ ...options, kinds });
  const { client } = account;
  const plan: Harness['plan'] = (paths, o = {}) =>
    computePlan({ paths, client, env: {}, adopt: o.adopt ?? false, noDelete: o.noDelete ?? false });
  return {
    ...account,
    kinds,
    writes: () => account.requests.filter((r) => r.method !== 'GET'),
    plan,
    sync: (paths, o = {}) => syncRun(client, kinds, { load: { paths, env: {} } }, o),
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

/** Plans `desired` against the emulator and applies the plan, as `sync` does. */
export function syncState(
  h: Harness,
  desired: DesiredState,
  options: SyncOptions = {},
): Promise<{ computed: ComputedPlan; result: ApplyResult }> {
  return syncRun(h.client, h.kinds, { desired }, options);
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
