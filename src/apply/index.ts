/**
 * The applier: executes a plan the planner computed, against the live API. It checks everything it
 * can before the first write (guards, a well-formed dependency graph, matching scopes), then runs
 * operations in dependency order, independent ones concurrently.
 */
import { ApiError, NetworkError, TimeoutError, type ApiClient } from '../api/index.js';
import { UserError } from '../errors.js';
import { isKeyDelete } from '../plan/key-in-use.js';
import type { Operation, Plan } from '../plan/types.js';
import type { DesiredState } from '../resources/index.js';
import { PlanMismatchError } from './build-request.js';
import { executeOperation, type OperationContext } from './execute-op.js';
import { checkGuards, defaultGuardOptions, type GuardOptions } from './guards.js';
import { IdTable } from './ids.js';
import { silentProgress, type ApplyProgress } from './progress.js';
import { checkGraph, runSchedule, type TaskOutcome } from './schedule.js';
import type { TokenSink } from './token-output.js';
import type { ApplyResult, OperationFailure, OperationResult } from './types.js';

export type * from './types.js';
export { checkGuards, defaultGuardOptions, type GuardOptions } from './guards.js';
export { fileTokenSink, type TokenEntry, type TokenFile, type TokenSink } from './token-output.js';
export { describeResult, lineProgress, silentProgress, ttyProgress, type ApplyProgress } from './progress.js';
export { PlanMismatchError } from './build-request.js';

/**
 * Operations running at once by default. The live API allows about 120 requests a minute (2/s); an
 * operation is one to three requests of 100-500 ms, so 4 workers already reach that rate with room
 * for slow responses, stay under the client's 8 connections (recovery lookups still get a slot),
 * and bound how much is in flight when a failure stops the run. See docs/apply.md.
 */
export const defaultParallelism = 4;

export interface ApplyOptions {
  /** Operations running at once; default {@link defaultParallelism}. */
  readonly parallelism?: number;
  /** Keep running what does not depend on a failed operation. */
  readonly continueOnError?: boolean;
  /** Mass-delete and empty-config guards; see {@link defaultGuardOptions}. */
  readonly guards?: Partial<GuardOptions>;
  /** Where created tokens go; without one they are not kept anywhere. */
  readonly tokens?: TokenSink;
  readonly progress?: ApplyProgress;
  /** Stops starting operations (running ones finish), for Ctrl-C. */
  readonly signal?: AbortSignal;
}

function failureOf(err: unknown): OperationFailure {
  if (err instanceof ApiError) {
    return {
      errorCode: err.errorCode,
      msg: err.msg,
      status: err.status,
      request: `${err.method} ${err.path}`,
    };
  }
  if (err instanceof NetworkError || err instanceof TimeoutError) {
    return { errorCode: err.code, msg: err.message, request: `${err.method} ${err.path}` };
  }
  if (err instanceof PlanMismatchError) return { errorCode: 'ERR_ACCTSYNC_PLAN', msg: err.message };
  // Something on this machine, not the API, failed the operation: the token file could not be written.
  if (err instanceof UserError) return { errorCode: 'ERR_ACCTSYNC_LOCAL', msg: err.message };
  return { errorCode: 'ERR_ACCTSYNC_INTERNAL', msg: err instanceof Error ? err.message : String(err) };
}

/** A 401 once this run deleted an API key: most likely the key acctsync was running with. */
function keyGoneHint(failure: OperationFailure, deletedKeys: readonly string[]): OperationFailure {
  if (failure.status !== 401 || deletedKeys.length === 0) return failure;
  return {
    ...failure,
    msg: `${failure.msg} (this run deleted API key ${deletedKeys.join(', ')}: probably the key acctsync was running with; use another key)`,
  };
}

function resultOf(
  op: Operation,
  outcome: TaskOutcome | undefined,
  extra: Partial<OperationResult>,
  deletedKeys: readonly string[] = [],
): OperationResult {
  const base = {
    id: op.id,
    action: op.action,
    kind: op.kind,
    key: op.key,
    ...(op.liveId === undefined ? {} : { objectId: op.liveId }),
  };
  if (outcome === undefined || outcome.status === 'not-attempted') {
    return {
      ...base,
      status: 'not-attempted',
      ...(outcome?.blockedBy === undefined ? {} : { blockedBy: outcome.blockedBy }),
    };
  }
  if (outcome.status === 'failed')
    return {
      ...base,
      ...extra,
      status: 'failed',
      failure: keyGoneHint(failureOf(outcome.error), deletedKeys),
    };
  return { ...base, ...extra, status: 'done' };
}

/**
 * Executes `plan`, taking request values (secrets included) from `desired`.
 * @throws {UserError} before any request when a guard refuses or the plan does not fit `desired`
 * @returns what happened to each operation; `status: 'failed'` when any operation did not finish
 */
export async function applyPlan(
  plan: Plan,
  desired: DesiredState,
  client: ApiClient,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const startedAt = performance.now();
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
  checkGuards(plan, desired, { ...defaultGuardOptions, ...options.guards });
  const parallelism = options.parallelism ?? defaultParallelism;
  if (!Number.isInteger(parallelism) || parallelism < 1)
    throw new UserError(`parallelism must be a whole number of at least 1, not ${parallelism}`);

  const progress = options.progress ?? silentProgress;
  const tokensSaved: string[] = [];
  const tokens: TokenSink | undefined =
    options.tokens === undefined
      ? undefined
      : {
          save: async (key, entry) => {
            await options.tokens?.save(key, entry);
            tokensSaved.push(key);
          },
        };
  const ctx: OperationContext = {
    client,
    scope: plan.scope,
    ids: new IdTable(plan),
    desired: new Map(desired.objects.map((o) => [o.key, o])),
    tokens,
  };
  const extras = new Map<string, Partial<OperationResult>>();
  const deletedKeys: string[] = [];
  const started = new Map<string, number>();

  let outcomes: Map<string, TaskOutcome>;
  try {
    outcomes = await runSchedule(
      plan.operations,
      {
        parallelism,
        continueOnError: options.continueOnError ?? false,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      async (op) => {
        started.set(op.id, performance.now());
        progress.started(op);
        const durationMs = (): number => Math.round(performance.now() - (started.get(op.id) ?? 0));
        try {
          const outcome = await executeOperation(ctx, op);
          if (isKeyDelete(op)) deletedKeys.push(op.key);
          extras.set(op.id, { ...outcome, durationMs: durationMs() });
          progress.finished(resultOf(op, { status: 'done' }, extras.get(op.id) ?? {}));
        } catch (error) {
          extras.set(op.id, { durationMs: durationMs() });
          progress.finished(resultOf(op, { status: 'failed', error }, extras.get(op.id) ?? {}, deletedKeys));
          throw error;
        }
      },
    );
  } finally {
    progress.end();
  }

  const operations = plan.operations.map((op) =>
    resultOf(op, outcomes.get(op.id), extras.get(op.id) ?? {}, deletedKeys),
  );
  const count = (status: OperationResult['status']): number =>
    operations.filter((r) => r.status === status).length;
  const counts = { done: count('done'), failed: count('failed'), notAttempted: count('not-attempted') };
  return {
    status: counts.failed === 0 && counts.notAttempted === 0 ? 'succeeded' : 'failed',
    operations,
    counts,
    durationMs: Math.round(performance.now() - startedAt),
    tokensSaved,
  };
}
