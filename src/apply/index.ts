/**
 * The applier: executes a plan the planner computed, against the live API. It checks what it can
 * before the first write (a well-formed dependency graph, matching scopes; the guards are the
 * run's, `pipeline/run-once.ts`), then runs operations in dependency order, independent ones
 * concurrently.
 */
import type { ApiClient } from '../api/index.js';
import { UserError } from '../errors.js';
import { isKeyDelete, type Operation, type Plan } from '../plan-format/index.js';
import { builtinKinds, type DesiredState, type KindRegistry } from '../resources/index.js';
import { executeOperation, type OperationContext } from './operation.js';
import { defaultParallelism } from './defaults.js';
import { IdTable } from './request.js';
import { silentProgress, type ApplyProgress } from './report.js';
import { checkGraph, runSchedule, type TaskOutcome } from './schedule.js';
import type { TokenSink } from './token-output.js';
import { applyResultOf, doneResult, resultOf, type ApplyResult, type RunRecord } from './result.js';

export type { ApplyResult, OperationResult } from './result.js';
export { abortedErrorCode } from './result.js';
export { defaultGuardOptions } from './defaults.js';
export { guardOptionsFor, guardRefusal, GuardRefusal, type GuardOptions } from './guards.js';
export { fileTokenSink } from './token-output.js';
export {
  describeResult,
  lineProgress,
  renderResultJson,
  renderResultText,
  ttyProgress,
  type ApplyProgress,
} from './report.js';

interface ApplyOptions {
  /** Operations running at once; default {@link defaultParallelism}. */
  readonly parallelism?: number;
  /** Keep running what does not depend on a failed operation. */
  readonly continueOnError?: boolean;
  /** Where created tokens go; without one they are not kept anywhere. */
  readonly tokens?: TokenSink;
  readonly progress?: ApplyProgress;
  /** Stops starting operations (running ones finish), for Ctrl-C. */
  readonly signal?: AbortSignal;
  /**
   * Checked synchronously before every request (retries and create recovery included); what it
   * throws fails the operation unsent: the scope's lease check (`ScopeLease.check`).
   */
  readonly mayWrite?: () => void;
  /** The kinds the plan's objects are of: the built-in ones unless given. */
  readonly kinds?: KindRegistry;
}

/**
 * Refuses, before any request, a plan that cannot run against `desired`: another scope, a
 * malformed dependency graph, or a parallelism that is not a count.
 * @returns the parallelism to run with
 */
function checkRunnable(plan: Plan, desired: DesiredState, options: ApplyOptions): number {
  if (plan.scope !== desired.scope) {
    throw new UserError(`the plan is for scope '${plan.scope}' but the config's scope is '${desired.scope}'`);
  }
  try {
    checkGraph(plan.operations);
  } catch (err) {
    throw new UserError(`the plan cannot be executed: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const parallelism = options.parallelism ?? defaultParallelism;
  if (!Number.isInteger(parallelism) || parallelism < 1)
    throw new UserError(`parallelism must be a whole number of at least 1, not ${parallelism}`);
  return parallelism;
}

/** `sink`, noting in `saved` the key of each token it wrote. */
function recordingSink(sink: TokenSink | undefined, saved: string[]): TokenSink | undefined {
  if (sink === undefined) return undefined;
  return {
    save: async (key, entry) => {
      await sink.save(key, entry);
      saved.push(key);
    },
  };
}

/** The scheduler's task: executes one operation, reporting its start and end and recording them. */
function operationTask(
  ctx: OperationContext,
  progress: ApplyProgress,
  run: RunRecord,
): (op: Operation) => Promise<void> {
  return async (op) => {
    const started = performance.now();
    progress.started(op);
    try {
      const outcome = await executeOperation(ctx, op);
      if (isKeyDelete(op, ctx.kinds)) run.deletedKeys.push(op.key);
      const result = doneResult(op, outcome, Math.round(performance.now() - started));
      run.done.set(op.id, result);
      progress.finished(result);
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      run.failedDurations.set(op.id, durationMs);
      progress.finished(resultOf(op, { status: 'failed', error }, { durationMs }, run.deletedKeys));
      throw error;
    }
  };
}

/**
 * Executes `plan`, taking request values (secrets included) from `desired`.
 * @throws {UserError} before any request when the plan does not fit `desired`
 * @returns what happened to each operation; `status: 'failed'` when any operation did not finish
 */
export async function applyPlan(
  plan: Plan,
  desired: DesiredState,
  client: ApiClient,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const run: RunRecord = {
    done: new Map(),
    failedDurations: new Map(),
    deletedKeys: [],
    tokensSaved: [],
    startedAt: performance.now(),
  };
  const parallelism = checkRunnable(plan, desired, options);
  const progress = options.progress ?? silentProgress;
  const ctx: OperationContext = {
    client,
    kinds: options.kinds ?? builtinKinds,
    scope: plan.scope,
    ids: new IdTable(plan),
    desired: new Map(desired.objects.map((o) => [o.key, o])),
    tokens: recordingSink(options.tokens, run.tokensSaved),
    mayWrite: options.mayWrite,
  };
  let outcomes: Map<string, TaskOutcome>;
  try {
    outcomes = await runSchedule(
      plan.operations,
      {
        parallelism,
        continueOnError: options.continueOnError ?? false,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      operationTask(ctx, progress, run),
    );
  } finally {
    progress.end();
  }
  return applyResultOf(plan, outcomes, run);
}
export { defaultParallelism } from './defaults.js';
export { checkSavedPlanCurrent, readSavedPlan } from './saved-plan.js';
export { tokenFileView } from './token-output.js';
