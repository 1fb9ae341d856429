/**
 * The one composition of the stages: load the config, take the scope's lease, read the account,
 * plan (with the what-if of the TLS edges it changes), judge the policy rules and the guards, and
 * apply or not. `plan`, `sync`, `apply plan.json`,
 * each `watch` reconcile and the tests run it; each renders what it returns. It prints nothing:
 * the caller's hooks (`account`, `beforeApply`) are where a command shows what it must as it goes.
 */
import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/index.js';
import {
  applyPlan,
  checkSavedPlanCurrent,
  fileTokenSink,
  guardOptionsFor,
  guardRefusal,
  type ApplyProgress,
  type ApplyResult,
  type GuardOptions,
  type GuardRefusal,
} from '../apply/index.js';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from '../config/index.js';
import { fetchLiveState, type LiveState } from '../live/index.js';
import { buildPlan, sensitiveValues } from '../plan/index.js';
import type { Plan, PolicyFinding, TokenFileView } from '../plan-format/index.js';
import { planFindings, policyRefusal, type PolicyRefusal, type PolicyRule } from '../policy/index.js';
import type { DesiredState, KindRegistry } from '../resources/index.js';
import { loadSampleTests, withTrafficChanges, type WhatIfOptions } from '../what-if/index.js';

/** The desired state: config files to load, or one already in memory (tests, benchmarks). */
type DesiredSource =
  | { readonly load: LoadConfigOptions }
  | {
      readonly desired: DesiredState;
      readonly configPaths?: readonly string[];
      /** The environment it was loaded for, recorded in the plan. */
      readonly environment?: string;
    };

/** The account to read and write, reached once the config is known (an environment names it). */
interface RunAccount {
  readonly client: ApiClient;
}

/** The scope's lease as a run needs it: held (writes stop when `signal` aborts), or another's. */
type LeaseHold =
  | {
      readonly held: true;
      readonly signal?: AbortSignal | undefined;
      /** Throws when the lease may no longer be relied on: checked before every request of the apply. */
      readonly check?: (() => void) | undefined;
      /** Before the first write: a daemon's lease back on its writing TTL; `idle` after the last. */
      readonly writing?: (() => Promise<void>) | undefined;
      readonly idle?: (() => void) | undefined;
    }
  | { readonly held: false; readonly holder: string; readonly retryInMs: number };

/** How a plan is made, besides its two states. */
interface PlanningInputs {
  readonly adopt: boolean;
  readonly noDelete: boolean;
  /** Protected keys this plan may delete or replace (`--unprotect`). */
  readonly unprotect?: readonly string[] | undefined;
  /** The token file's captured ids (`--token-output`) and `--recapture-tokens`. */
  readonly tokens?: TokenFileView | undefined;
  /** The plan's `createdAt`. */
  readonly now: Date;
}

/** Applying, for the runs that write. */
interface ApplyInputs {
  readonly parallelism: number;
  readonly continueOnError: boolean;
  /** Where created tokens go (`--token-output`), opened after the guards passed. */
  readonly tokenOutput?: string | undefined;
  readonly progress?: ((plan: Plan) => ApplyProgress) | undefined;
  /** Stops starting operations (Ctrl-C); the run's own `signal` and a lost lease do too. */
  readonly signal?: AbortSignal | undefined;
  /** The last moment before the first write, once nothing refused: show the plan, ask. */
  readonly beforeApply?: ((planned: Planned) => void | Promise<void>) | undefined;
  /**
   * The plan to send, the plan given less the writes held back (the daemon's writes that do not
   * converge: `watch/convergence.ts`); the whole plan when absent.
   */
  readonly holdBack?: ((plan: Plan) => Plan) | undefined;
}

export interface RunInputs {
  readonly desired: DesiredSource;
  /**
   * Reaches the account the loaded config names (`loaded` is absent for a state given in memory);
   * called once the config has loaded, so it is also where a command shows the loader's warnings.
   */
  readonly account: (loaded: LoadedConfig | undefined, desired: DesiredState) => Promise<RunAccount>;
  /** Takes the scope's lease before the account is read; none for a run that never writes. */
  readonly lease?: ((client: ApiClient, scope: string) => Promise<LeaseHold>) | undefined;
  readonly planning: PlanningInputs;
  /**
   * `--traffic-tests` files: their connections are what the plan's what-if runs through each
   * changed TLS edge a test names; other changed edges get samples derived from their rules.
   */
  readonly trafficTests?: readonly string[] | undefined;
  /** The what-if's safety net, for a test that makes it fire; every command runs the default. */
  readonly whatIf?: Pick<WhatIfOptions, 'net'> | undefined;
  /** `--policy` rules: their findings are the plan's `policy`; an error rule refuses the write. */
  readonly policies?: (() => Promise<readonly PolicyRule[]>) | undefined;
  /** `--force` and the limits given as flags; the config's `guards:` fill the rest. */
  readonly guards: Partial<GuardOptions> & { readonly force: boolean };
  /** A plan saved for review (`apply plan.json`): applied when a plan made now holds the same. */
  readonly saved?: Plan | undefined;
  /** Absent: the run plans and stops there. */
  readonly apply?: ApplyInputs | undefined;
  /** Aborts reading and writing: the daemon's stop. */
  readonly signal?: AbortSignal | undefined;
  /** The kinds the account is read, planned, judged and written by. */
  readonly kinds: KindRegistry;
}

/** What was planned, with what would refuse writing it. */
export interface Planned {
  readonly desired: DesiredState;
  readonly live: LiveState;
  /** The plan to apply: the saved one for `apply plan.json` (equal to a fresh one), else a fresh one. */
  readonly plan: Plan;
  readonly loaded?: LoadedConfig | undefined;
  readonly policy: readonly PolicyFinding[];
  /** What refuses the write: a broken policy error rule first, then a guard. */
  readonly refusal?: PolicyRefusal | GuardRefusal | undefined;
  /** The guards' verdict, whether or not the policy refused first (`plan` shows what sync would meet). */
  readonly guardRefusal?: GuardRefusal | undefined;
}

export type RunResult =
  | (Planned & { readonly status: 'planned' | 'refused' })
  | (Planned & { readonly status: 'applied'; readonly applied: ApplyResult })
  | { readonly status: 'standby'; readonly holder: string; readonly retryInMs: number }
  | {
      readonly status: 'stopped';
      /** What stopped it: the run's `signal` or the lease's loss, with its reason. */
      readonly reason: unknown;
      readonly when: 'while planning' | 'before applying';
      readonly planned: number;
    };

/** The desired state, and the loaded config when it came from files. */
async function desiredOf(source: DesiredSource): Promise<{
  desired: DesiredState;
  loaded?: LoadedConfig;
  configPaths: readonly string[];
  environment?: string;
  otherEnvironments?: readonly string[];
}> {
  if ('desired' in source) {
    return {
      desired: source.desired,
      configPaths: source.configPaths ?? [],
      ...(source.environment === undefined ? {} : { environment: source.environment }),
    };
  }
  const loaded = await loadConfig(source.load);
  return {
    desired: loaded.desired,
    loaded,
    configPaths: source.load.paths,
    ...(loaded.environment === undefined ? {} : { environment: loaded.environment.name }),
    otherEnvironments: loaded.otherEnvironments,
  };
}

/** The signal reads and writes stop on: the run's, and the lease's when held. */
function runSignal(...signals: readonly (AbortSignal | undefined)[]): AbortSignal | undefined {
  const given = signals.filter((s) => s !== undefined);
  if (given.length <= 1) return given[0];
  const signal = AbortSignal.any(given);
  // Every request in flight listens on it: many at once is not a leak.
  setMaxListeners(0, signal);
  return signal;
}

/**
 * The live state, read by `client` (the one that also scrubs the config's secrets). Once one of
 * its requests has failed the read has failed: the others are aborted rather than left retrying.
 */
async function readLive(
  client: ApiClient,
  desired: DesiredState,
  options: { readonly noDelete: boolean; readonly kinds: KindRegistry },
  signal: AbortSignal | undefined,
): Promise<LiveState> {
  const requests = new AbortController();
  setMaxListeners(0, requests.signal);
  const onStop = (): void => requests.abort(signal?.reason);
  if (signal?.aborted) onStop();
  else signal?.addEventListener('abort', onStop, { once: true });
  try {
    return await fetchLiveState(client, desired, {
      noDelete: options.noDelete,
      registry: options.kinds,
      signal: requests.signal,
    });
  } catch (err) {
    requests.abort(new Error('reading the account failed'));
    throw err;
  } finally {
    signal?.removeEventListener('abort', onStop);
  }
}

/** Load, lease, read, plan, policy, guards, and apply when asked and nothing refused. */
export async function runOnce(inputs: RunInputs): Promise<RunResult> {
  const { desired, loaded, configPaths, environment, otherEnvironments } = await desiredOf(inputs.desired);
  const trafficTests = await loadSampleTests(inputs.trafficTests ?? [], desired);
  const account = await inputs.account(loaded, desired);
  const hold = inputs.lease === undefined ? undefined : await inputs.lease(account.client, desired.scope);
  if (hold?.held === false) return { status: 'standby', holder: hold.holder, retryInMs: hold.retryInMs };
  const signal = runSignal(inputs.signal, hold?.signal);
  const { kinds } = inputs;
  // The caller's client is left as it is: reads and writes go through one scrubbing the secrets too.
  const client = account.client.withSecrets(sensitiveValues(desired, kinds));
  let live: LiveState;
  try {
    live = await readLive(client, desired, { noDelete: inputs.planning.noDelete, kinds }, signal);
  } catch (err) {
    if (signal?.aborted)
      return { status: 'stopped', reason: signal.reason, when: 'while planning', planned: 0 };
    throw err;
  }
  const { planning } = inputs;
  const built = buildPlan(desired, live, {
    kinds,
    scope: desired.scope,
    adopt: planning.adopt,
    noDelete: planning.noDelete,
    configPaths,
    now: planning.now,
    ...(planning.unprotect === undefined ? {} : { unprotect: planning.unprotect }),
    ...(environment === undefined ? {} : { environment }),
    ...(otherEnvironments === undefined ? {} : { otherEnvironments }),
    ...(planning.tokens === undefined ? {} : { tokens: planning.tokens }),
  });
  const fresh = await withTrafficChanges(built, desired, live, trafficTests, inputs.whatIf);
  if (inputs.saved !== undefined) checkSavedPlanCurrent(inputs.saved, fresh);
  const rules = (await inputs.policies?.()) ?? [];
  const policy =
    rules.length === 0 ? [] : await planFindings(rules, fresh, desired, { env: environment ?? '', kinds });
  const base = inputs.saved ?? fresh;
  const plan = rules.length === 0 ? base : { ...base, policy };
  const guards = guardOptionsFor(desired, inputs.guards);
  const guardVerdict = guardRefusal(plan, desired, guards, kinds);
  const refusal = policyRefusal(policy) ?? guardVerdict;
  const planned: Planned = { desired, live, plan, loaded, policy, refusal, guardRefusal: guardVerdict };
  if (inputs.apply === undefined) return { ...planned, status: 'planned' };
  if (refusal !== undefined) return { ...planned, status: 'refused' };
  const { apply } = inputs;
  const sending = apply.holdBack?.(plan) ?? plan;
  const tokens = apply.tokenOutput === undefined ? undefined : await fileTokenSink(apply.tokenOutput);
  // A daemon's lease goes to its writing TTL for a plan with something to write, and back after;
  // `beforeApply` comes after that, so what it announces is followed by the first writes at once.
  const held = hold?.held === true && sending.operations.length > 0 ? hold : undefined;
  await held?.writing?.();
  try {
    await apply.beforeApply?.(planned);
    if (signal?.aborted)
      return {
        status: 'stopped',
        reason: signal.reason,
        when: 'before applying',
        planned: plan.operations.length,
      };
    const writing = runSignal(apply.signal, signal);
    const applied = await applyPlan(sending, desired, client, {
      kinds,
      parallelism: apply.parallelism,
      continueOnError: apply.continueOnError,
      ...(apply.progress === undefined ? {} : { progress: apply.progress(plan) }),
      ...(writing === undefined ? {} : { signal: writing }),
      ...(hold?.held === true && hold.check !== undefined ? { mayWrite: hold.check } : {}),
      ...(tokens === undefined ? {} : { tokens }),
    });
    return { ...planned, status: 'applied', applied };
  } finally {
    held?.idle?.();
  }
}
