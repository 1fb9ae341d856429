/**
 * The apply step of a reconcile: runs the plan, reports each operation as it finishes (a log line
 * and the progress `/status` and the metrics show), and tells an operation the daemon's stop cut
 * (past `--shutdown-grace`) from one that failed: the first is `stopped`, logged as a warning, and
 * the next start finishes it.
 */
import { counted } from '../count.js';
import type { Logger } from 'pino';
import {
  abortedErrorCode,
  describeResult,
  type ApplyProgress,
  type ApplyResult,
  type OperationResult,
} from '../apply/index.js';
import type { KindRegistry } from '../resources/index.js';
import { configKindOf, type DriftEvent } from './drift.js';
import type { OperationOutcome, ReconcileContext, ReconcileResult } from './types.js';

/** What an applier result counts as; `stopping`: the daemon's stop signal had fired. */
function outcomeOf(op: OperationResult, stopping: boolean): OperationOutcome {
  switch (op.status) {
    case 'done':
      return 'succeeded';
    case 'not-attempted':
      return 'not_attempted';
    case 'failed':
      return stopping && op.failure?.errorCode === abortedErrorCode ? 'stopped' : 'failed';
  }
}

/** The operations carried out, for the reconcile's result. */
export function appliedOf(result: ApplyResult, kinds: KindRegistry): ReconcileResult['applied'] {
  return result.operations
    .filter((op) => op.status === 'done')
    .map((op) => ({ kind: configKindOf(kinds, op.kind), key: op.key, action: op.action }));
}

function logOperation(log: Logger, op: OperationResult, outcome: OperationOutcome): void {
  const fields = { operation: op.id };
  if (outcome === 'succeeded') log.info(fields, describeResult(op));
  else if (outcome === 'stopped')
    log.warn(fields, `${op.action} ${op.key}: stopped by the shutdown (the next start finishes it)`);
  else log.error(fields, describeResult(op));
}

/** The progress a reconcile's apply reports through, and the result once it is done. */
export interface ReportedApply {
  readonly progress: ApplyProgress;
  /** Reports the operations never attempted, which the applier's progress does not see. */
  finish(result: ApplyResult): ApplyResult;
}

/** Logs and reports each operation of a reconcile's apply (on objects of `kinds`) as it finishes. */
export function reportedApply(
  { log, signal, progress }: ReconcileContext,
  kinds: KindRegistry,
): ReportedApply {
  const report = (op: OperationResult): void => {
    const outcome = outcomeOf(op, signal.aborted);
    const kind = configKindOf(kinds, op.kind);
    progress.operationFinished({ kind, key: op.key, action: op.action, outcome });
    if (outcome !== 'not_attempted') logOperation(log, op, outcome);
  };
  return {
    progress: { started() {}, finished: report, end() {} },
    finish(result) {
      for (const op of result.operations) if (op.status === 'not-attempted') report(op);
      return result;
    },
  };
}

/** What is known of a reconcile whose apply did not finish, besides the applier's result. */
interface IncompleteApply {
  readonly planned: number;
  readonly drift: readonly DriftEvent[];
  /** The daemon's stop signal had fired. */
  readonly stopping: boolean;
  /** The kinds the plan's objects are of. */
  readonly kinds: KindRegistry;
}

/**
 * What a reconcile reports when some operations did not finish: `stopped` when the daemon's stop
 * is all that kept them (none failed on its own), `failed` otherwise.
 */
export function incompleteApplyResult(
  result: ApplyResult,
  { planned, drift, stopping, kinds }: IncompleteApply,
): ReconcileResult {
  const outcomes = result.operations.map((op) => outcomeOf(op, stopping));
  const count = (outcome: OperationOutcome): number => outcomes.filter((o) => o === outcome).length;
  const applied = appliedOf(result, kinds);
  if (stopping && count('failed') === 0)
    return {
      status: 'stopped',
      planned,
      applied,
      drift,
      reason: `the daemon stopped: ${counted(applied.length, 'operation', 'operations')} done, ${count('stopped')} cut by the shutdown, ${count('not_attempted')} not started; the next start finishes them`,
    };
  return {
    status: 'failed',
    planned,
    applied,
    drift,
    reason: `${counted(count('failed'), 'operation', 'operations')} failed, ${count('not_attempted') + count('stopped')} not attempted${stopping ? ' (the daemon is stopping)' : ''}`,
    details: result.operations.filter((op) => op.status !== 'done').map(describeResult),
    failedObjects: result.operations
      .filter((op) => outcomeOf(op, stopping) === 'failed')
      .map((op) => ({ kind: configKindOf(kinds, op.kind), key: op.key, reason: describeResult(op) })),
  };
}
