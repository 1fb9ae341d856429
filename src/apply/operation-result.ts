/** What happened to each operation of a run, and to the run as a whole, as the applier reports it. */
import { AbortError, ApiError, NetworkError, TimeoutError } from '../api/index.js';
import { UserError } from '../errors.js';
import type { Operation, Plan } from '../plan-format/index.js';
import { PlanMismatchError } from './plan-mismatch.js';
import { WriteNotKeptError } from './verify-write.js';
import type { TaskOutcome } from './schedule.js';
import type { ApplyResult, OperationFailure, OperationResult } from './types.js';

/** The error code of an operation whose request was aborted. */
export const abortedErrorCode = 'ERR_ACCTSYNC_ABORTED';

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
  // Cut by the caller (a signal, a shutdown past its grace), not refused by the API: callers that
  // stop on purpose tell it from a failure by this code.
  if (err instanceof AbortError)
    return { errorCode: abortedErrorCode, msg: err.message, request: `${err.method} ${err.path}` };
  if (err instanceof PlanMismatchError) return { errorCode: 'ERR_ACCTSYNC_PLAN', msg: err.message };
  // The service answered success and holds another value: the same write would be planned again.
  if (err instanceof WriteNotKeptError)
    return {
      errorCode: 'ERR_ACCTSYNC_NOT_KEPT',
      msg: err.message,
      request: err.request,
      notKept: { field: err.field, sent: err.sent, kept: err.kept },
    };
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

/** The result of an operation that did not succeed (a success's is {@link doneResult}'s). */
export function resultOf(
  op: Operation,
  outcome: Exclude<TaskOutcome, { readonly status: 'done' }> | undefined,
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
  return {
    ...base,
    ...extra,
    status: 'failed',
    failure: keyGoneHint(failureOf(outcome.error), deletedKeys),
  };
}

/**
 * The result of an operation whose requests all succeeded: made once, when it finishes, for the
 * progress reporter and the run's result alike. Members in the order {@link resultOf} gives them.
 */
export function doneResult(
  op: Operation,
  outcome: { readonly objectId: string; readonly recovery?: string },
  durationMs: number,
): OperationResult {
  const { id, action, kind, key } = op;
  const { objectId, recovery } = outcome;
  return recovery === undefined
    ? { id, action, kind, key, objectId, durationMs, status: 'done' }
    : { id, action, kind, key, objectId, recovery, durationMs, status: 'done' };
}

/** What a run records about its operations as they finish. */
export interface RunRecord {
  /** Per operation id: the result of each operation that succeeded, from {@link doneResult}. */
  readonly done: Map<string, OperationResult>;
  /** Per operation id: how long each failed operation ran. */
  readonly failedDurations: Map<string, number>;
  /** Keys of the API keys this run deleted, for the hint on a later 401. */
  readonly deletedKeys: string[];
  readonly tokensSaved: string[];
  readonly startedAt: number;
}

export function applyResultOf(
  plan: Plan,
  outcomes: ReadonlyMap<string, TaskOutcome>,
  run: RunRecord,
): ApplyResult {
  const counts = { done: 0, failed: 0, notAttempted: 0 };
  const operations = plan.operations.map((op) => {
    const outcome = outcomes.get(op.id);
    if (outcome?.status === 'done') {
      counts.done++;
      // The task records its result before the scheduler records the task done.
      const result = run.done.get(op.id);
      if (result === undefined) throw new Error(`internal: operation ${op.id} done without a result`);
      return result;
    }
    if (outcome?.status !== 'failed') {
      counts.notAttempted++;
      return resultOf(op, outcome, {});
    }
    counts.failed++;
    const durationMs = run.failedDurations.get(op.id);
    return resultOf(op, outcome, durationMs === undefined ? {} : { durationMs }, run.deletedKeys);
  });
  return {
    status: counts.failed === 0 && counts.notAttempted === 0 ? 'succeeded' : 'failed',
    operations,
    counts,
    durationMs: Math.round(performance.now() - run.startedAt),
    tokensSaved: run.tokensSaved,
  };
}
