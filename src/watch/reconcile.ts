/**
 * The daemon's reconcile step: one `runOnce` of the whole config tree, as `sync` runs it (the same
 * lease, rules and guards, never forced), with its result told as the daemon reports it.
 * Expected failures come back as results, so the loop can count, report and back off.
 */
import { counted } from '../count.js';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import type { ApplyResult, GuardOptions } from '../apply/index.js';
import { ConfigError, renderDiagnostic, type Diagnostic } from '../config/index.js';
import { UserError } from '../errors.js';
import { forgedWarning, type Hold } from '../lease/index.js';
import type { Operation, Plan } from '../plan-format/index.js';
import { runOnce, type Planned, type RunInputs, type RunResult } from '../pipeline/index.js';
import { PolicyFileError, PolicyRefusal, loadPolicies } from '../policy/index.js';

import type { DesiredState, KindRegistry } from '../resources/index.js';
import { ConvergenceWatch, notConvergingLine, type NotConverging } from './convergence.js';
import { driftEventsOf, observedDriftEvents, type DriftEvent } from './drift.js';
import { gitCommitOf } from './git-revision.js';
import { planViewOf, type PlanView } from './plan-view.js';
import { appliedOf, incompleteApplyResult, reportedApply, type ReportedApply } from './reconcile-apply.js';
import type { ConfigRevision, ReconcileContext, ReconcileResult, ReconcileStep, WatchMode } from './types.js';

export interface ReconcileSettings {
  /** Config files or directories, as given on the command line. */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** `--files-root` directories, absolute. */
  readonly filesRoot?: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly client: ApiClient;
  readonly scope?: string;
  /** The environment to load, for a config that declares environments (`--env`). */
  readonly environment?: string;
  readonly adopt: boolean;
  readonly noDelete: boolean;
  readonly parallelism: number;
  readonly continueOnError: boolean;
  /**
   * The guard limits given as flags; the config's `guards:`, read on each reconcile, fills the rest,
   * as for `sync`. `force` is not accepted: the daemon never skips a guard.
   */
  readonly guards: Partial<Omit<GuardOptions, 'force'>>;
  /** Where created tokens go; without it they are not kept (the plan notes say so). */
  readonly tokenOutput?: string;
  /** `observe` plans and reports, and never applies; default `reconcile`. */
  readonly mode?: WatchMode;
  /** Reconcile mode plans and writes only while holding the scope's lease (docs/lease.md). */
  readonly hold?: (scope: string) => Promise<Hold>;
  /** `--policy` files, read on every reconcile. */
  readonly policyPaths?: readonly string[];
  /** The kinds the account is read, planned, judged and written by, and drift and metrics name. */
  readonly kinds: KindRegistry;
}

/** The last desired state the account was made equal to, and when. */
interface LastGood {
  readonly state: DesiredState;
  /** The plan's `desiredFingerprint` of it: the same again means the config did not change. */
  readonly fingerprint: string;
  readonly reconciledAt: Date;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));
const userDetails = (err: unknown): readonly string[] => (err instanceof UserError ? err.details : []);

/** What a reconcile reports when the tree fails to load: nothing changes, the account stays as it is. */
function invalidConfigResult(
  diagnostics: readonly Diagnostic[],
  lastGood: LastGood | undefined,
): ReconcileResult {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const kept =
    lastGood === undefined
      ? 'no config has been applied yet'
      : `keeping the desired state last applied at ${lastGood.reconciledAt.toISOString()} (${counted(lastGood.state.objects.length, 'object', 'objects')})`;
  return {
    status: 'invalid_config',
    planned: 0,
    applied: [],
    reason: `the config failed to load (${counted(errors, 'error', 'errors')}); nothing was changed, ${kept}`,
    details: diagnostics.map((d) => renderDiagnostic(d)),
  };
}

/**
 * Cut before any write, while planning or once planned: by the daemon's stop (a stop is no
 * failure), or by the scope's lease being lost (a failure, with the lease's reason).
 */
function cutShort(
  when: 'while planning' | 'before applying',
  planned: number,
  stopping: AbortSignal,
  reason: unknown,
): ReconcileResult {
  return {
    status: stopping.aborted ? 'stopped' : 'failed',
    planned,
    applied: [],
    reason: `${stopping.aborted ? `the daemon stopped ${when}` : message(reason)}; nothing was applied`,
  };
}

/** Another process holds the scope's lease: this daemon waits, and asks again in `retryInMs`. */
function standingBy(holder: string, retryInMs: number): ReconcileResult {
  return { status: 'standby', planned: 0, applied: [], reason: 'standby', details: [holder], retryInMs };
}

/** The config a plan was made from, for `/status`. */
async function revisionOf(
  plan: Plan,
  desired: DesiredState,
  settings: ReconcileSettings,
): Promise<ConfigRevision> {
  const first = settings.paths[0];
  const gitCommit = first === undefined ? undefined : await gitCommitOf(resolve(settings.cwd, first));
  return {
    revision: plan.desiredFingerprint,
    ...(gitCommit === undefined ? {} : { gitCommit }),
    managedObjects: desired.objects.length,
  };
}

/** Reports (and logs) the drift among `drifted`, with what the apply, if any, reverted. */
function driftReporter(
  drifted: { readonly operations: readonly Operation[]; readonly configUnchanged: boolean },
  { log, observe, kinds }: { readonly log: Logger; readonly observe: boolean; readonly kinds: KindRegistry },
  observed: readonly DriftEvent[],
): (applied?: ApplyResult) => DriftEvent[] {
  return (applied) => {
    const events = driftEventsOf(kinds, drifted.operations, drifted.configUnchanged, applied);
    for (const event of events)
      log.warn(
        { drift: event },
        `drift: ${event.key} differs from the config${event.reverted ? '; reverted' : observe ? '; observing, not reverted' : '; not reverted'}`,
      );
    return [...observed, ...events];
  };
}

/** Observed entries are reported every time they differ: nothing ever puts them back. */
function observedDrift(plan: Plan, log: Logger, kinds: KindRegistry): DriftEvent[] {
  const seen = observedDriftEvents(kinds, plan.observed ?? []);
  for (const event of seen)
    log.warn({ drift: event }, `drift: ${event.key} (observed) differs from the config; never written`);
  return seen;
}

/**
 * Builds the reconcile step. It keeps the last good desired state (the last one reconciled
 * successfully): when the tree fails to load (a broken or half-written file), the step plans nothing
 * and changes nothing, and reports the diagnostics along with the state the account stays at.
 */
export function createReconcileStep(settings: ReconcileSettings): ReconcileStep {
  let lastGood: LastGood | undefined;
  const { kinds } = settings;
  const convergence = new ConvergenceWatch(kinds);
  const observe = settings.mode === 'observe';

  const step = async (ctx: ReconcileContext, stage: StageState): Promise<ReconcileResult> => {
    const { log } = ctx;
    const reported = reportedApply(ctx, kinds);
    const announce = announcer(settings, ctx);
    let sending: Plan | undefined;
    let held: readonly NotConverging[] = [];
    const holdBack = (plan: Plan): Plan => {
      const hold = convergence.hold(plan);
      for (const object of hold.held) log.warn({ notConverging: object }, notConvergingLine(object));
      ({ plan: sending, held } = hold);
      return hold.plan;
    };
    let run: RunResult;
    try {
      run = await runOnce(runInputs(settings, ctx, { stage, reported, announce, holdBack }));
    } catch (err) {
      return failureOf(err, stage.now, ctx.signal, lastGood);
    }
    if (run.status === 'standby') return standingBy(run.holder, run.retryInMs);
    if (run.status === 'stopped') return cutShort(run.when, run.planned, ctx.signal, run.reason);
    const { plan, desired } = run;
    stage.plan = planViewOf(plan, desired, kinds);
    const planned = plan.operations.length;
    if (run.refusal instanceof PolicyRefusal && !observe) return refusedBy(run.refusal, planned);
    await announce(run);
    const succeeded = (
      applied: ReconcileResult['applied'],
      drift: readonly DriftEvent[],
    ): ReconcileResult => {
      lastGood = { state: desired, fingerprint: plan.desiredFingerprint, reconciledAt: new Date() };
      return { status: 'success', planned, applied, ...(drift.length === 0 ? {} : { drift }) };
    };
    const seen = observedDrift(plan, log, kinds);
    if (planned === 0) return succeeded([], seen);
    // With the config unchanged since the account last equalled it, every difference was made by
    // hand; with a new config, what the plan says was changed outside acctsync (its `cause`).
    // Observing, the account never equals the config on purpose: every difference counts.
    const configUnchanged = lastGood?.fingerprint === plan.desiredFingerprint;
    const drifted = {
      operations:
        observe || configUnchanged
          ? plan.operations
          : plan.operations.filter((op) => op.cause === 'drift' || op.cause === 'both'),
      configUnchanged,
    };
    const reportDrift = driftReporter(drifted, { log, observe, kinds }, seen);
    if (observe) {
      if (run.guardRefusal !== undefined)
        log.warn({ reason: run.guardRefusal.message }, 'observing: the guards would refuse this plan');
      return { status: 'success', planned, applied: [], drift: reportDrift() };
    }
    if (run.status === 'refused' && run.refusal !== undefined)
      return { ...refusedBy(run.refusal, planned), drift: reportDrift() };
    if (run.status !== 'applied') throw new Error(`a reconcile that applies ended ${run.status}`);
    const result = reported.finish(run.applied);
    if (sending !== undefined) convergence.record(sending, run.applied);
    const stuck = held.length === 0 ? {} : { notConverging: held };
    const drift = reportDrift(result);
    if (result.status === 'succeeded') return { ...succeeded(appliedOf(result, kinds), drift), ...stuck };
    const incomplete = { planned, drift, stopping: ctx.signal.aborted, kinds };
    return { ...incompleteApplyResult(result, incomplete), ...stuck };
  };
  return async (ctx) => {
    const stage: StageState = { now: 'load' };
    return withStage(await step(ctx, stage), stage);
  };
}

type Stage = 'load' | 'lease' | 'plan' | 'apply';

/** Tells what a reconcile planned (once, before any write): the rules' warnings, `/status`, the log. */
type Announce = (planned: Planned) => Promise<void>;

function announcer(settings: ReconcileSettings, { log, progress }: ReconcileContext): Announce {
  let done = false;
  return async ({ plan, desired, policy }) => {
    if (done) return;
    done = true;
    for (const f of policy.filter((x) => x.severity === 'warning'))
      log.warn({ policy: f }, `policy rule ${f.rule} on ${f.object}: ${f.message}`);
    progress.planned(await revisionOf(plan, desired, settings), plan.operations.length);
    if (plan.operations.length > 0)
      log.info({ summary: plan.summary, notes: plan.notes }, 'plan has changes');
  };
}

/**
 * Where a reconcile is, the forged lease it took over, if it did (its result's `leaseForged`), and
 * what it planned, once it has (its result's `plan`).
 */
interface StageState {
  now: Stage;
  forged?: string;
  plan?: PlanView;
}

/** `result` with the forged lease the reconcile took over and what it planned, as far as it got. */
const withStage = (result: ReconcileResult, stage: StageState): ReconcileResult => ({
  ...result,
  ...(stage.forged === undefined ? {} : { leaseForged: stage.forged }),
  ...(stage.plan === undefined ? {} : { plan: stage.plan }),
});

/** The lease could not be read or taken: the reconcile fails, the daemon tries again later. */
class LeaseUnavailable extends Error {
  constructor(scope: string, cause: unknown) {
    super(`could not take the lease on scope ${scope}: ${message(cause)}`);
  }
}

/** The run of one reconcile: the whole tree under the daemon's scope, its lease, its rules. */
function runInputs(
  settings: ReconcileSettings,
  ctx: ReconcileContext,
  {
    stage,
    reported,
    announce,
    holdBack,
  }: { stage: StageState; reported: ReportedApply; announce: Announce; holdBack: (plan: Plan) => Plan },
): RunInputs {
  const observe = settings.mode === 'observe';
  // Observe mode never writes, so it holds no lease.
  const hold = observe ? undefined : settings.hold;
  const policyPaths = settings.policyPaths ?? [];
  return {
    desired: {
      load: {
        paths: settings.paths,
        env: settings.env,
        cwd: settings.cwd,
        filesRoot: settings.filesRoot ?? [],
        ...(settings.environment === undefined ? {} : { environment: settings.environment }),
        ...(settings.scope === undefined ? {} : { scope: settings.scope }),
      },
    },
    account: (loaded) => {
      for (const warning of loaded?.warnings ?? [])
        ctx.log.warn({ diagnostic: renderDiagnostic(warning) }, 'config warning');
      stage.now = hold === undefined ? 'plan' : 'lease';
      return Promise.resolve({ client: settings.client });
    },
    ...(hold === undefined
      ? {}
      : {
          lease: async (_client, scope) => {
            const held = await hold(scope).catch((err: unknown) => {
              throw new LeaseUnavailable(scope, err);
            });
            stage.now = 'plan';
            if (held.held && held.forged !== undefined) {
              stage.forged = forgedWarning(scope, held.forged);
              ctx.log.warn({ lease: 'forged' }, stage.forged);
            }
            return held;
          },
        }),
    planning: { adopt: settings.adopt, noDelete: settings.noDelete, now: new Date() },
    ...(policyPaths.length === 0
      ? {}
      : { policies: () => loadPolicies(policyPaths, settings.kinds, settings.cwd) }),
    // The daemon never skips a guard.
    guards: { ...settings.guards, force: false },
    ...(observe
      ? {}
      : {
          apply: {
            parallelism: settings.parallelism,
            continueOnError: settings.continueOnError,
            tokenOutput: settings.tokenOutput,
            progress: () => reported.progress,
            holdBack,
            beforeApply: async (planned) => {
              stage.now = 'apply';
              await announce(planned);
            },
          },
        }),
    signal: ctx.signal,
    kinds: settings.kinds,
  };
}

/** A refusal (a broken policy rule, a guard) as the reconcile's result: nothing was written. */
function refusedBy(refusal: UserError, planned: number): ReconcileResult {
  return { status: 'refused', planned, applied: [], reason: refusal.message, details: refusal.details };
}

/**
 * What a reconcile reports when its run threw: the tree failed to load (the account stays as it
 * is), a rule file is broken, the lease could not be taken, planning failed (its requests cut
 * by the daemon's stop or the lease's loss), or applying failed.
 */
function failureOf(
  err: unknown,
  stage: Stage,
  stopping: AbortSignal,
  lastGood: LastGood | undefined,
): ReconcileResult {
  if (err instanceof PolicyFileError)
    return {
      status: 'invalid_config',
      planned: 0,
      applied: [],
      reason: `${err.message}; nothing was changed`,
      details: err.diagnostics.map((d) => renderDiagnostic(d)),
    };
  // After the rule files: their error is a ConfigError too.
  if (err instanceof ConfigError) return invalidConfigResult(err.diagnostics, lastGood);
  if (err instanceof LeaseUnavailable)
    return { status: 'failed', planned: 0, applied: [], reason: err.message };
  if (stage === 'apply')
    return {
      status: 'failed',
      planned: 0,
      applied: [],
      reason: `apply failed: ${message(err)}`,
      details: userDetails(err),
    };
  if (stopping.aborted) return cutShort('while planning', 0, stopping, err);
  // A UserError here is the config's (a metadata value the ownership marker pushes over the limit).
  return {
    status: err instanceof UserError ? 'invalid_config' : 'failed',
    planned: 0,
    applied: [],
    reason: `planning failed: ${message(err)}`,
    details: userDetails(err),
  };
}
