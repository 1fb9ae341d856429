/** The contract between the watch loop and the reconcile step it runs. */
import type { Logger } from 'pino';
import type { DriftEvent } from './drift.js';

/** `reconcile` applies plans; `observe` plans and reports them, and changes nothing. */
export type WatchMode = 'reconcile' | 'observe';

/** What started a reconcile. */
export type Trigger = 'start' | 'change' | 'interval' | 'retry';

/**
 * How a reconcile ended: `success` (the account equals the config, nothing or everything applied),
 * `invalid_config` (the tree failed to load: nothing was planned or changed), `refused` (a safety
 * guard stopped the plan before any call), `failed` (the API or the applier failed part-way),
 * `standby` (another process holds the scope's lease: nothing was planned; docs/lease.md).
 */
export type ReconcileStatus = 'success' | 'invalid_config' | 'refused' | 'failed' | 'standby';

/** One operation that was carried out, for the operations metric. */
export interface AppliedOperation {
  /** As the config names it (`backends`). */
  readonly kind: string;
  readonly action: string;
}

export interface ReconcileResult {
  readonly status: ReconcileStatus;
  /** Operations the plan held; 0 when the account already matched. */
  readonly planned: number;
  /** Operations carried out, also when the reconcile failed part-way. */
  readonly applied: readonly AppliedOperation[];
  /** Why it did not succeed, one line. */
  readonly reason?: string;
  /** Diagnostics, guard explanations or failed operations, one per line. */
  readonly details?: readonly string[];
  /**
   * Live objects that differed from a desired state already reconciled (someone changed the
   * account), or in observe mode every object that differs; empty or absent when none did.
   */
  readonly drift?: readonly DriftEvent[];
  /** Run again after this long instead of the interval (a standby asks for the lease again). */
  readonly retryInMs?: number;
}

export interface ReconcileContext {
  /** Unique per reconcile; every log line of the reconcile carries it as `reconcile`. */
  readonly id: string;
  readonly trigger: Trigger;
  /** A child logger bound to the reconcile id. */
  readonly log: Logger;
  /** Aborted when the daemon stops: start no new operation, let in-flight ones finish. */
  readonly signal: AbortSignal;
}

/** Load config → plan → guard → apply, once. Never throws for expected failures: it returns them. */
export type ReconcileStep = (context: ReconcileContext) => Promise<ReconcileResult>;
