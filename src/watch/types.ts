/** The contract between the watch loop and the reconcile step it runs. */
import type { Logger } from 'pino';
import type { NotConverging } from './convergence.js';
import type { DriftEvent } from './drift.js';
import type { PlanView } from './plan-view.js';

/** `reconcile` applies plans; `observe` plans and reports them, and changes nothing. */
export type WatchMode = 'reconcile' | 'observe';

/** What started a reconcile. */
export type Trigger = 'start' | 'change' | 'interval' | 'retry';

/**
 * How a reconcile ended: `success` (the account equals the config, nothing or everything applied),
 * `invalid_config` (the tree failed to load: nothing was planned or changed), `refused` (a safety
 * guard stopped the plan before any call), `failed` (the API or the applier failed part-way),
 * `stopped` (the daemon was stopping: nothing failed, the next start finishes the work),
 * `standby` (another process holds the scope's lease: nothing was planned; docs/lease.md).
 */
export type ReconcileStatus = 'success' | 'invalid_config' | 'refused' | 'failed' | 'stopped' | 'standby';

/**
 * How one operation of a plan ended, as the metrics count it: `stopped` is an operation whose
 * requests the shutdown cut past `--shutdown-grace`; `not_attempted` one that never started.
 */
export type OperationOutcome = 'succeeded' | 'failed' | 'not_attempted' | 'stopped';

/** The desired state a reconcile planned against, for `/status`. */
export interface ConfigRevision {
  /** The plan's desired-state fingerprint: the same config gives the same revision. */
  readonly revision: string;
  /** `HEAD` of the git work tree holding the config, when it is in one. */
  readonly gitCommit?: string;
  /** Objects of the config the daemon keeps equal in the account. */
  readonly managedObjects: number;
}

/** What a running reconcile reports as it goes, so progress shows before it ends. */
export interface ReconcileProgress {
  /** The config loaded and planned: its revision and how many operations the plan holds. */
  planned(config: ConfigRevision, operations: number): void;
  operationFinished(operation: AppliedOperation & { readonly outcome: OperationOutcome }): void;
}

/** One operation that was carried out, for the operations metric. */
export interface AppliedOperation {
  /** As the config names it (`backends`). */
  readonly kind: string;
  readonly key: string;
  readonly action: string;
}

/** An object whose operation failed, and how. */
interface FailedObject {
  /** As the config names it (`backends`). */
  readonly kind: string;
  readonly key: string;
  /** The applier's line for the operation. */
  readonly reason: string;
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
  /**
   * Objects whose same write was sent twice on consecutive reconciles and planned again: held back
   * (not sent) until the config or the live value changes (`convergence.ts`).
   */
  readonly notConverging?: readonly NotConverging[];
  /** Run again after this long instead of the interval (a standby asks for the lease again). */
  readonly retryInMs?: number;
  /** The warning, when this reconcile took over a forged lease (docs/lease.md). */
  readonly leaseForged?: string;
  /** The objects whose operations failed; absent when none did. */
  readonly failedObjects?: readonly FailedObject[];
  /** What the reconcile planned, when it got as far as a plan: the status page's objects and change. */
  readonly plan?: PlanView;
}

export interface ReconcileContext {
  /** Unique per reconcile; every log line of the reconcile carries it as `reconcile`. */
  readonly id: string;
  readonly trigger: Trigger;
  /** A child logger bound to the reconcile id. */
  readonly log: Logger;
  /** Aborted when the daemon stops: start no new operation, let in-flight ones finish. */
  readonly signal: AbortSignal;
  readonly progress: ReconcileProgress;
}

/** Load config → plan → guard → apply, once. Never throws for expected failures: it returns them. */
export type ReconcileStep = (context: ReconcileContext) => Promise<ReconcileResult>;
