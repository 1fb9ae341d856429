/**
 * What the daemon tells of itself: finished reconciles folded into the `/readyz` and `/status`
 * answers, and the view the status page (`GET /`) renders.
 */
import { cappedDetails } from './details.js';
import { notConvergingLine, type NotConverging } from './convergence.js';
import type { DriftEvent } from './drift.js';
import type { ReconcileRecord } from './loop.js';
import type { RunningStatus } from './progress.js';
import { objectStates, type ObjectState } from './object-states.js';
import type { PlanView } from './plan-view.js';
import type { ConfigRevision, ReconcileResult, Trigger, WatchMode } from './types.js';

/** A finished reconcile in the endpoints' answers. */
interface ReconcileSummary {
  readonly id: string;
  readonly trigger: string;
  readonly status: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly planned: number;
  readonly applied: number;
}

/** The `/readyz` body. */
interface Readiness {
  readonly ready: boolean;
  /** Why not ready, one line; absent when ready. */
  readonly reason?: string;
  /** Diagnostics or failed operations behind `reason`, the first 20. */
  readonly details?: readonly string[];
  /** How many more details there are. */
  readonly moreDetails?: number;
  readonly lastReconcile?: ReconcileSummary;
  readonly lastSuccessAt?: string;
  /** Consecutive failed reconciles. */
  readonly failures: number;
  /** Objects whose writes do not converge and are held back, one line each (`convergence.ts`). */
  readonly notConverging?: readonly string[];
}

/** What `/status` shows of the daemon as it is now, besides finished reconciles. */
interface LiveStatus {
  /** The environment the daemon keeps; null for a config without environments. */
  readonly environment?: string | null;
  /** The API's origin. */
  readonly api?: string;
  /** The config the last plan was made from. */
  readonly config?: ConfigRevision;
  /** The reconcile running now. */
  readonly running?: RunningStatus;
  /** The next reconcile scheduled, when none runs. */
  readonly nextRun?: { readonly trigger: Trigger; readonly at: string };
}

/** What the status page (`GET /`) renders. */
export interface StatusView {
  readonly status: DaemonStatus;
  /** Newest first. */
  readonly recent: readonly ReconcileRecord[];
  /** The last reconcile that planned: when, its plan, and the state it left each object in. */
  readonly planned?: {
    readonly reconcile: string;
    readonly at: string;
    readonly plan: PlanView;
    readonly objects: readonly ObjectState[];
  };
}

/** The `/status` body: what an operator asks a running daemon. */
export interface DaemonStatus extends LiveStatus {
  readonly mode: WatchMode;
  readonly ready: boolean;
  readonly lastReconcile?: ReconcileSummary;
  readonly lastSuccessAt?: string;
  /** The last reconcile that found drifted objects, and those objects. */
  readonly lastDrift?: {
    readonly reconcile: string;
    readonly at: string;
    readonly objects: readonly DriftEvent[];
  };
  /** Objects whose same write was sent twice and planned again: held back, not sent. */
  readonly notConverging?: readonly NotConverging[];
  /** The scope the last plan was made for. */
  readonly scope?: string;
  /** The scope's lease as the last reconcile that asked for it found it. */
  readonly lease?: LeaseState;
  /** The last reconcile that did not succeed, kept after recovery. */
  readonly lastError?: {
    readonly reconcile: string;
    readonly at: string;
    readonly status: string;
    readonly reason: string;
    readonly details?: readonly string[];
    readonly moreDetails?: number;
  };
}

/**
 * `active`: this daemon holds the scope's lease (`holder` says who it is); `standby`: another
 * process does (`holder` names it); `none`: the daemon takes no lease (observe mode, the embedded
 * emulator).
 */
interface LeaseState {
  readonly state: 'active' | 'standby' | 'none';
  readonly holder?: string;
}

/** Reconciles the status page lists. */
const recentShown = 10;

const finishedAt = (record: ReconcileRecord): Date =>
  new Date(record.startedAt.getTime() + record.durationMs);

function summaryOf(record: ReconcileRecord): ReconcileSummary {
  return {
    id: record.id,
    trigger: record.trigger,
    status: record.result.status,
    finishedAt: finishedAt(record).toISOString(),
    durationMs: record.durationMs,
    planned: record.result.planned,
    applied: record.result.applied.length,
  };
}

/** Folds reconcile records into the `/readyz` and `/status` answers. */
export class ReadinessState {
  readonly #mode: WatchMode;
  readonly #live: () => LiveStatus;
  #last: ReconcileRecord | undefined;
  #lastSuccessAt: Date | undefined;
  #lastDrift: DaemonStatus['lastDrift'];
  #lastError: DaemonStatus['lastError'];
  /** As the last reconcile that planned against the account found them. */
  #notConverging: readonly NotConverging[] = [];
  /** Newest first. */
  #recent: readonly ReconcileRecord[] = [];
  /** The last reconcile that got as far as a plan. */
  #planned: (ReconcileRecord & { readonly result: { readonly plan: PlanView } }) | undefined;
  #lease: LeaseState | undefined;
  readonly #leaseHolder: string | undefined;

  /**
   * `leaseHolder`: this daemon as the scope's lease records it, when it takes the lease (reconcile
   * mode on an account of its own).
   */
  constructor(mode: WatchMode = 'reconcile', live: () => LiveStatus = () => ({}), leaseHolder?: string) {
    this.#mode = mode;
    this.#live = live;
    this.#leaseHolder = leaseHolder;
    if (mode === 'observe' || leaseHolder === undefined) this.#lease = { state: 'none' };
  }

  /** Records a finished reconcile. */
  record(record: ReconcileRecord): void {
    this.#recent = [record, ...this.#recent].slice(0, recentShown);
    // A stop says nothing of the account or the config: readiness stays what it was.
    if (record.result.status === 'stopped') return;
    this.#last = record;
    const { plan } = record.result;
    if (plan !== undefined) this.#planned = { ...record, result: { ...record.result, plan } };
    if (this.#lease?.state !== 'none') this.#lease = this.#leaseAfter(record.result) ?? this.#lease;
    const at = finishedAt(record);
    const { result } = record;
    if (result.status === 'success') this.#lastSuccessAt = at;
    else if (result.status !== 'standby')
      this.#lastError = {
        reconcile: record.id,
        at: at.toISOString(),
        status: result.status,
        reason: result.reason ?? 'no reason given',
        ...cappedDetails(result.details),
      };
    if (record.drift)
      this.#lastDrift = { reconcile: record.id, at: at.toISOString(), objects: result.drift ?? [] };
    if (result.status === 'success' || result.status === 'failed')
      this.#notConverging = result.notConverging ?? [];
  }

  /** A plan is made holding the lease; a reconcile that stopped before planning says nothing of it. */
  #leaseAfter(result: ReconcileResult): LeaseState | undefined {
    if (result.status === 'standby')
      return {
        state: 'standby',
        ...(result.details?.[0] === undefined ? {} : { holder: result.details[0] }),
      };
    if (result.plan === undefined) return undefined;
    return { state: 'active', ...(this.#leaseHolder === undefined ? {} : { holder: this.#leaseHolder }) };
  }

  /** What the status page shows: `/status`, the last reconciles, the last plan and its objects. */
  get view(): StatusView {
    const planned = this.#planned;
    return {
      status: this.status,
      recent: this.#recent,
      ...(planned === undefined
        ? {}
        : {
            planned: {
              reconcile: planned.id,
              at: finishedAt(planned).toISOString(),
              plan: planned.result.plan,
              objects: objectStates(planned.result.plan, planned.result, this.#notConverging),
            },
          }),
    };
  }

  /** `notConverging` of an answer, when there are any. */
  #stuck(): { readonly notConverging?: readonly string[] } {
    return this.#notConverging.length === 0
      ? {}
      : { notConverging: this.#notConverging.map(notConvergingLine) };
  }

  /** The `/status` answer. */
  get status(): DaemonStatus {
    const last = this.#last;
    return {
      mode: this.#mode,
      ready: last?.result.status === 'success',
      ...this.#live(),
      ...(last === undefined ? {} : { lastReconcile: summaryOf(last) }),
      ...(this.#lastSuccessAt === undefined ? {} : { lastSuccessAt: this.#lastSuccessAt.toISOString() }),
      ...(this.#lastDrift === undefined ? {} : { lastDrift: this.#lastDrift }),
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#notConverging.length === 0 ? {} : { notConverging: this.#notConverging }),
      ...(this.#planned === undefined ? {} : { scope: this.#planned.result.plan.scope }),
      ...(this.#lease === undefined ? {} : { lease: this.#lease }),
    };
  }

  /** The current answer. */
  get current(): Readiness {
    const last = this.#last;
    const since =
      this.#lastSuccessAt === undefined ? {} : { lastSuccessAt: this.#lastSuccessAt.toISOString() };
    if (last === undefined)
      return { ready: false, reason: 'no reconcile has finished yet', failures: 0, ...since };
    const { result } = last;
    const lastReconcile = summaryOf(last);
    if (result.status === 'success')
      return { ready: true, lastReconcile, failures: 0, ...since, ...this.#stuck() };
    // Another process holds the scope (docs/lease.md): not an error, and the details name it.
    if (result.status === 'standby')
      return {
        ready: false,
        reason: 'standby',
        details: result.details ?? [],
        lastReconcile,
        failures: 0,
        ...since,
      };
    return {
      ready: false,
      reason: `${result.status}: ${result.reason ?? 'no reason given'}`,
      ...cappedDetails(result.details),
      lastReconcile,
      failures: last.failures,
      ...since,
      ...this.#stuck(),
    };
  }
}
