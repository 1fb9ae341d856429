/**
 * What the applier reports: per operation, what happened to it, and for the whole run, the counts a
 * person or a CI job needs. Plain data, printed as text or JSON by the CLI (`report.ts`). One module
 * because the types and the functions that make them change together: how an error becomes an
 * operation's `failure` is part of what the result says.
 */
import { AbortError, ApiError, NetworkError, TimeoutError } from '../api/index.js';
import { UserError } from '../errors.js';
import type { Operation, OperationAction, Plan } from '../plan-format/index.js';
import type { KindName } from '../resources/index.js';
import { PlanMismatchError, WriteNotKeptError } from './request.js';
import type { TaskOutcome } from './schedule.js';

/**
 * `done`: every request of the operation succeeded. `failed`: a request failed (the object may be
 * half-changed; the next plan shows what is left). `not-attempted`: the run stopped before it, or
 * something it depends on failed.
 */
type OperationStatus = 'done' | 'failed' | 'not-attempted';

/** Why an operation failed, as the API said it (no request body, nothing secret). */
interface OperationFailure {
  /** `ERR_SVC_<n>` from the API, or the transport's code (`ECONNRESET`, `ETIMEDOUT`), or `ERR_ACCTSYNC`. */
  readonly errorCode: string;
  readonly msg: string;
  /** HTTP status when the server answered. */
  readonly status?: number;
  /** `PATCH /ip_policies/ipp_...`: which request of the operation failed. */
  readonly request?: string;
  /**
   * For `ERR_ACCTSYNC_NOT_KEPT`: the member the service answered with another value than the one
   * sent, and both values as JSON text (a secret as `(sensitive)`).
   */
  readonly notKept?: { readonly field: string; readonly sent: string; readonly kept: string };
}

export interface OperationResult {
  readonly id: string;
  readonly action: OperationAction;
  readonly kind: KindName;
  readonly key: string;
  readonly status: OperationStatus;
  /** The object's id after the operation: the new id for a create, the live id otherwise. */
  readonly objectId?: string;
  readonly failure?: OperationFailure;
  /** For `not-attempted`: the failed operation it depends on, when that is the reason. */
  readonly blockedBy?: string;
  /** How an ambiguous create was resolved (`adopted the object the lost response created`, ...). */
  readonly recovery?: string;
  readonly durationMs?: number;
}

interface ApplyCounts {
  readonly done: number;
  readonly failed: number;
  readonly notAttempted: number;
}

export interface ApplyResult {
  /** `succeeded` when every operation is done (an empty plan included). */
  readonly status: 'succeeded' | 'failed';
  readonly operations: readonly OperationResult[];
  readonly counts: ApplyCounts;
  readonly durationMs: number;
  /** Logical keys of token-bearing objects created in this run whose token was written to the token file. */
  readonly tokensSaved: readonly string[];
}

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
