/**
 * A reconcile while it runs: what it has planned and finished so far (for `/status` and the
 * metrics, mid-apply), and the API retries it met (logged one by one at debug, summarised once).
 */
import type { Logger } from 'pino';
import type { RetryEvent } from '../api/index.js';
import { retryReason, type RetryReason } from './retry-reason.js';
import type {
  AppliedOperation,
  ConfigRevision,
  OperationOutcome,
  ReconcileProgress,
  Trigger,
} from './types.js';

/** The `running` member of `/status`. */
export interface RunningStatus {
  readonly id: string;
  readonly trigger: Trigger;
  readonly startedAt: string;
  /** Operations of the plan; absent while the config loads and the plan is computed. */
  readonly planned?: number;
  readonly done: number;
  readonly failed: number;
  readonly notAttempted: number;
  readonly stopped: number;
}

/** Told as a reconcile goes: the daemon feeds `/status` and the metrics from it. */
export interface ProgressListener {
  readonly config?: (config: ConfigRevision) => void;
  readonly operation?: (operation: AppliedOperation & { readonly outcome: OperationOutcome }) => void;
}

/** The retries of one reconcile, for its summary line. */
interface RetrySummary {
  readonly retries: number;
  readonly byReason: Partial<Record<RetryReason, number>>;
  /** Time spent waiting on the server's `Retry-After`. */
  readonly rateLimitedWaitMs: number;
}

/** See the module comment. The loop makes one per reconcile and hands it to the step. */
export class RunningReconcile implements ReconcileProgress {
  readonly id: string;
  readonly trigger: Trigger;
  readonly startedAt = new Date();
  /** Bound to the reconcile id. */
  readonly log: Logger;
  readonly #listener: ProgressListener;
  #planned: number | undefined;
  readonly #outcomes: Record<OperationOutcome, number> = {
    succeeded: 0,
    failed: 0,
    not_attempted: 0,
    stopped: 0,
  };
  #retries = 0;
  #requests = 0;
  #rateLimitedWaitMs = 0;
  readonly #byReason: Partial<Record<RetryReason, number>> = {};

  constructor(init: { id: string; trigger: Trigger; log: Logger }, listener: ProgressListener = {}) {
    this.id = init.id;
    this.trigger = init.trigger;
    this.log = init.log;
    this.#listener = listener;
  }

  planned(config: ConfigRevision, operations: number): void {
    this.#planned = operations;
    this.#listener.config?.(config);
  }

  operationFinished(operation: AppliedOperation & { readonly outcome: OperationOutcome }): void {
    this.#outcomes[operation.outcome]++;
    this.#listener.operation?.(operation);
  }

  /** One API request attempt of this reconcile was answered (or failed). */
  requested(): void {
    this.#requests++;
  }

  /** API request attempts this reconcile made so far, retries included. */
  get requests(): number {
    return this.#requests;
  }

  /** Logs a retry of one of this reconcile's requests at debug, and counts it for the summary. */
  retried(event: RetryEvent, description: string): void {
    const reason = retryReason(event);
    this.#retries++;
    this.#byReason[reason] = (this.#byReason[reason] ?? 0) + 1;
    if (reason === 'rate_limited') this.#rateLimitedWaitMs += event.waitMs;
    this.log.debug(
      {
        retry: {
          method: event.method,
          path: event.path,
          attempt: event.attempt,
          reason,
          waitMs: event.waitMs,
        },
      },
      description,
    );
  }

  /** The retries so far; undefined when there were none. */
  get retrySummary(): RetrySummary | undefined {
    if (this.#retries === 0) return undefined;
    return {
      retries: this.#retries,
      byReason: { ...this.#byReason },
      rateLimitedWaitMs: Math.round(this.#rateLimitedWaitMs),
    };
  }

  get status(): RunningStatus {
    const o = this.#outcomes;
    return {
      id: this.id,
      trigger: this.trigger,
      startedAt: this.startedAt.toISOString(),
      ...(this.#planned === undefined ? {} : { planned: this.#planned }),
      done: o.succeeded,
      failed: o.failed,
      notAttempted: o.not_attempted,
      stopped: o.stopped,
    };
  }
}
