/**
 * The one place where the daemon's reconcile step is built from the stages `sync` uses: load the
 * whole config tree, plan against the live account, check the same guards (never forced), apply.
 * Expected failures come back as results, so the loop can count, report and back off.
 */
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import type { ApiClient } from '../api/index.js';
import { guardOptionsFor, guardRefusal, type ApplyResult, type GuardOptions } from '../apply/index.js';
import { loadDesiredState, renderDiagnostic, type Diagnostic } from '../config/index.js';
import { UserError } from '../errors.js';
import type { Operation, Plan } from '../plan/index.js';
import { planFor } from '../pipeline/index.js';
import type { DesiredState } from '../resources/index.js';
import { ConvergenceWatch, notConvergingLine } from './convergence.js';
import { driftEventsOf, observedDriftEvents, type DriftEvent } from './drift.js';
import { gitCommitOf } from './git-revision.js';
import { applyReported, appliedOf, incompleteApplyResult } from './reconcile-apply.js';
import { policyRefusal } from './policy-check.js';
import { writeSignal, type HoldScope } from './scope-hold.js';
import type { ConfigRevision, ReconcileResult, ReconcileStep, WatchMode } from './types.js';

export interface ReconcileSettings {
  /** Config files or directories, as given on the command line. */
  readonly paths: readonly string[];
  readonly cwd: string;
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
  readonly hold?: HoldScope;
  /** `--policy` files, read on every reconcile. */
  readonly policyPaths?: readonly string[];
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
      : `keeping the desired state last applied at ${lastGood.reconciledAt.toISOString()} (${lastGood.state.objects.length} objects)`;
  return {
    status: 'invalid_config',
    planned: 0,
    applied: [],
    reason: `the config failed to load (${errors} ${errors === 1 ? 'error' : 'errors'}); nothing was changed, ${kept}`,
    details: diagnostics.map((d) => renderDiagnostic(d)),
  };
}

/** The whole tree's desired state under the daemon's scope, or why it failed to load. */
async function loadDesired(
  settings: ReconcileSettings,
  log: Logger,
): Promise<{ readonly desired: DesiredState } | { readonly diagnostics: readonly Diagnostic[] }> {
  const loaded = await loadDesiredState([...settings.paths], {
    env: settings.env,
    cwd: settings.cwd,
    ...(settings.environment === undefined ? {} : { environment: settings.environment }),
  });
  if (!loaded.ok) return { diagnostics: loaded.diagnostics };
  for (const warning of loaded.warnings)
    log.warn({ diagnostic: renderDiagnostic(warning) }, 'config warning');
  return {
    desired: settings.scope === undefined ? loaded.state : { ...loaded.state, scope: settings.scope },
  };
}

/**
 * The plan against the live account, or the reconcile's result when planning failed. Once one of
 * its requests has failed, the plan has failed: the others are aborted rather than left retrying.
 * Cut by the daemon's stop (`stopping`) it is `stopped`; by the lease's loss (`signal` is the
 * writing signal, aborted by either), `failed` with the lease's reason.
 */
async function planOrFailure(
  desired: DesiredState,
  settings: ReconcileSettings,
  stopping: AbortSignal,
  signal: AbortSignal,
): Promise<{ readonly plan: Plan } | { readonly failure: ReconcileResult }> {
  const requests = new AbortController();
  // Every list request of the plan listens on it at once: many is not a leak.
  setMaxListeners(0, requests.signal);
  const onStop = (): void => requests.abort(signal.reason);
  if (signal.aborted) onStop();
  else signal.addEventListener('abort', onStop, { once: true });
  try {
    const { plan } = await planFor(desired, settings.client, {
      adopt: settings.adopt,
      noDelete: settings.noDelete,
      configPaths: settings.paths,
      ...(settings.environment === undefined ? {} : { environment: settings.environment }),
      signal: requests.signal,
    });
    return { plan };
  } catch (err) {
    requests.abort(new Error('planning failed'));
    if (signal.aborted) return { failure: cutShort('while planning', 0, stopping, signal) };
    // A UserError here is the config's (a metadata value the ownership marker pushes over the limit).
    const status = err instanceof UserError ? 'invalid_config' : 'failed';
    return {
      failure: {
        status,
        planned: 0,
        applied: [],
        reason: `planning failed: ${message(err)}`,
        details: userDetails(err),
      },
    };
  } finally {
    signal.removeEventListener('abort', onStop);
  }
}

/**
 * Cut before any write, while planning or once planned: by the daemon's stop (a stop is no
 * failure), or by the scope's lease being lost (a failure, with the lease's reason).
 */
function cutShort(
  when: 'while planning' | 'before applying',
  planned: number,
  stopping: AbortSignal,
  writing: AbortSignal,
): ReconcileResult {
  return {
    status: stopping.aborted ? 'stopped' : 'failed',
    planned,
    applied: [],
    reason: `${stopping.aborted ? `the daemon stopped ${when}` : message(writing.reason)}; nothing was applied`,
  };
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
  drifted: readonly Operation[],
  log: Logger,
  observe: boolean,
  observed: readonly DriftEvent[],
): (applied?: ApplyResult) => DriftEvent[] {
  return (applied) => {
    const events = driftEventsOf(drifted, applied);
    for (const event of events)
      log.warn(
        { drift: event },
        `drift: ${event.key} differs from the config${event.reverted ? '; reverted' : observe ? '; observing, not reverted' : '; not reverted'}`,
      );
    return [...observed, ...events];
  };
}

/** The `--policy` files a reconcile reads again each time. */
function policyFiles(settings: ReconcileSettings): Parameters<typeof policyRefusal>[0] {
  return { paths: settings.policyPaths ?? [], cwd: settings.cwd, environment: settings.environment ?? '' };
}

/** Observed entries are reported every time they differ: nothing ever puts them back. */
function observedDrift(plan: Plan, log: Logger): DriftEvent[] {
  const seen = observedDriftEvents(plan.observed ?? []);
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
  const convergence = new ConvergenceWatch();
  const observe = settings.mode === 'observe';

  return async (ctx) => {
    const { log } = ctx;
    const loaded = await loadDesired(settings, log);
    if ('diagnostics' in loaded) return invalidConfigResult(loaded.diagnostics, lastGood);
    const { desired } = loaded;
    const writing = await writeSignal(observe ? undefined : settings.hold, desired.scope, ctx.signal);
    if ('result' in writing) return writing.result;
    const { signal } = writing;
    const planning = await planOrFailure(desired, settings, ctx.signal, signal);
    if ('failure' in planning) return planning.failure;
    const { plan } = planning;
    const stop = await policyRefusal(policyFiles(settings), desired, plan, log);
    if (stop !== undefined && !observe) return stop;
    const planned = plan.operations.length;
    ctx.progress.planned(await revisionOf(plan, desired, settings), planned);
    const succeeded = (
      applied: ReconcileResult['applied'],
      drift: readonly DriftEvent[],
    ): ReconcileResult => {
      lastGood = { state: desired, fingerprint: plan.desiredFingerprint, reconciledAt: new Date() };
      return { status: 'success', planned, applied, ...(drift.length === 0 ? {} : { drift }) };
    };
    const seen = observedDrift(plan, log);
    if (planned === 0) return succeeded([], seen);
    log.info({ summary: plan.summary, notes: plan.notes }, 'plan has changes');
    // With the config unchanged since the account last equalled it, every difference was made by
    // hand. Observing, the account never equals the config on purpose: every difference counts.
    const drifted = observe || lastGood?.fingerprint === plan.desiredFingerprint ? plan.operations : [];
    const reportDrift = driftReporter(drifted, log, observe, seen);

    const guards: GuardOptions = guardOptionsFor(desired, { ...settings.guards, force: false });
    const refusal = guardRefusal(plan, desired, guards);
    if (observe) {
      if (refusal !== undefined)
        log.warn({ reason: refusal.message }, 'observing: the guards would refuse this plan');
      return { status: 'success', planned, applied: [], drift: reportDrift() };
    }
    if (refusal !== undefined) {
      return {
        status: 'refused',
        planned,
        applied: [],
        reason: refusal.message,
        details: refusal.details,
        drift: reportDrift(),
      };
    }
    if (signal.aborted) return cutShort('before applying', planned, ctx.signal, signal);

    const { plan: sending, held } = convergence.hold(plan);
    for (const object of held) log.warn({ notConverging: object }, notConvergingLine(object));
    const stuck = held.length === 0 ? {} : { notConverging: held };
    if (sending.operations.length === 0) return { ...succeeded([], reportDrift()), ...stuck };
    let result: ApplyResult;
    try {
      result = await applyReported(sending, desired, settings, guards, { ...ctx, signal });
      convergence.record(sending, result);
    } catch (err) {
      const reason = `apply failed: ${message(err)}`;
      return {
        status: 'failed',
        planned,
        applied: [],
        reason,
        details: userDetails(err),
        drift: reportDrift(),
      };
    }
    const drift = reportDrift(result);
    if (result.status === 'succeeded') return { ...succeeded(appliedOf(result), drift), ...stuck };
    return { ...incompleteApplyResult(result, planned, drift, ctx.signal.aborted), ...stuck };
  };
}
