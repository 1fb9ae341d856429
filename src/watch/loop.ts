/**
 * The reconcile loop: one reconcile at a time, a start reconcile, a periodic resync with jitter, a
 * capped exponential backoff after failures, and "a change during a reconcile triggers exactly one
 * more" (requests that arrive while one runs collapse into a single follow-up).
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { runWithin } from './api-events.js';
import { backoffDelay, jitteredInterval, type BackoffPolicy, type Random } from './backoff.js';
import { cappedDetails } from './details.js';
import { RunningReconcile, type ProgressListener, type RunningStatus } from './progress.js';
import type { ReconcileResult, ReconcileStep, Trigger } from './types.js';

/** A finished reconcile, as the health endpoint and the metrics see it. */
export interface ReconcileRecord {
  readonly id: string;
  readonly trigger: Trigger;
  readonly result: ReconcileResult;
  readonly startedAt: Date;
  readonly durationMs: number;
  /** Consecutive failures including this one; 0 on success. */
  readonly failures: number;
  /** The step found live objects differing from a desired state already reconciled: someone edited the account. */
  readonly drift: boolean;
  /** API request attempts the reconcile made, retries included. */
  readonly apiRequests: number;
}

interface LoopOptions {
  readonly reconcile: ReconcileStep;
  readonly log: Logger;
  /** Full resync period. */
  readonly intervalMs: number;
  /** ± fraction of the interval; default 0.1. */
  readonly jitter?: number;
  /** Retry delays after failures; capped at the interval too, so a failing daemon still resyncs no less often. */
  readonly backoff: BackoffPolicy;
  /** Called when a reconcile starts. */
  readonly onStarted?: () => void;
  /** Told of a running reconcile's progress. */
  readonly progress?: ProgressListener;
  /** Called after every reconcile, before the next is scheduled. */
  readonly onSettled?: (record: ReconcileRecord) => void;
  readonly random?: Random;
}

/** Orders a queued trigger: a file change wins, so the follow-up is not mistaken for drift. */
const precedence: Readonly<Record<Trigger, number>> = { interval: 0, retry: 1, start: 2, change: 3 };

/** See the module comment. Create, then {@link ReconcileLoop.start}; {@link ReconcileLoop.stop} on shutdown. */
export class ReconcileLoop {
  readonly #options: LoopOptions;
  readonly #stopping = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #nextRun: { readonly trigger: Trigger; readonly at: string } | undefined;
  #running: Promise<void> | undefined;
  #current: RunningReconcile | undefined;
  #queued: Trigger | undefined;
  #failures = 0;
  #retryInMs: number | undefined;

  constructor(options: LoopOptions) {
    this.#options = options;
    // The planner's concurrent requests each listen on it while they run: many at once is not a leak.
    setMaxListeners(0, this.#stopping.signal);
  }

  /** The reconcile running now, and how far it got. */
  get running(): RunningStatus | undefined {
    return this.#current?.status;
  }

  /** The next reconcile scheduled, while none runs. */
  get nextRun(): { readonly trigger: Trigger; readonly at: string } | undefined {
    return this.#nextRun;
  }

  /** Runs the start reconcile. */
  start(): void {
    this.request('start');
  }

  /** Asks for a reconcile: now if idle, right after the current one otherwise (at most one queued). */
  request(trigger: Trigger): void {
    if (this.#stopping.signal.aborted) return;
    if (this.#running !== undefined) {
      if (this.#queued === undefined || precedence[trigger] > precedence[this.#queued])
        this.#queued = trigger;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextRun = undefined;
    this.#running = this.#run(trigger).finally(() => {
      this.#running = undefined;
      this.#next();
    });
  }

  /**
   * Stops scheduling and tells the running reconcile (through its signal) to start nothing new.
   * Resolves when it has finished; the caller bounds the wait and aborts requests if it must.
   */
  async stop(): Promise<void> {
    this.#stopping.abort(new Error('the daemon is stopping'));
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#nextRun = undefined;
    this.#queued = undefined;
    await this.#running;
  }

  async #run(trigger: Trigger): Promise<void> {
    const id = randomUUID().slice(0, 8);
    const log = this.#options.log.child({ reconcile: id });
    const run = new RunningReconcile({ id, trigger, log }, this.#options.progress);
    this.#current = run;
    this.#options.onStarted?.();
    log.info({ trigger }, 'reconcile started');
    let result: ReconcileResult;
    try {
      result = await runWithin(run, () =>
        this.#options.reconcile({ id, trigger, log, signal: this.#stopping.signal, progress: run }),
      );
    } catch (err) {
      // The step returns expected failures; a throw is a bug or an unexpected fault. Keep the daemon up.
      log.error({ err }, 'reconcile crashed');
      result = {
        status: 'failed',
        planned: 0,
        applied: [],
        reason: err instanceof Error ? err.message : String(err),
      };
    }
    this.#current = undefined;
    const durationMs = Date.now() - run.startedAt.getTime();
    const previousFailures = this.#failures;
    // A stop is no failure, and no success either: the streak stands as it was. Waiting for the
    // lease is no failure: no backoff, no error log every time it asks again.
    if (result.status === 'success' || result.status === 'standby') this.#failures = 0;
    else if (result.status !== 'stopped') this.#failures = previousFailures + 1;
    this.#retryInMs = result.retryInMs;
    const drift = (result.drift?.length ?? 0) > 0;
    if (drift)
      log.warn({ objects: result.drift?.length }, 'drift detected: the account differed from the config');
    const retries = run.retrySummary;
    if (retries !== undefined)
      log.info(retries, `${retries.retries} API request retries during this reconcile`);
    const apiRequests = run.requests;
    logResult(log, { trigger, result, durationMs, apiRequests }, previousFailures, this.#failures);
    this.#options.onSettled?.({
      id,
      trigger,
      result,
      startedAt: run.startedAt,
      durationMs,
      failures: this.#failures,
      drift,
      apiRequests,
    });
  }

  #next(): void {
    if (this.#stopping.signal.aborted) return;
    const queued = this.#queued;
    this.#queued = undefined;
    if (queued !== undefined) {
      this.request(queued);
      return;
    }
    const { intervalMs, random } = this.#options;
    const interval = jitteredInterval(intervalMs, this.#options.jitter ?? 0.1, random);
    const [trigger, delayMs]: [Trigger, number] =
      this.#retryInMs !== undefined
        ? ['retry', this.#retryInMs]
        : this.#failures === 0
          ? ['interval', interval]
          : ['retry', Math.min(interval, backoffDelay(this.#failures, this.#options.backoff, random))];
    this.#options.log.debug({ trigger, delayMs }, 'next reconcile scheduled');
    this.#nextRun = { trigger, at: new Date(Date.now() + delayMs).toISOString() };
    this.#timer = setTimeout(() => this.request(trigger), delayMs);
  }
}

/** The one line that says how a reconcile ended: info on success, warn on a stop, error otherwise. */
function logResult(
  log: Logger,
  ended: {
    readonly trigger: Trigger;
    readonly result: ReconcileResult;
    readonly durationMs: number;
    readonly apiRequests: number;
  },
  previousFailures: number,
  failures: number,
): void {
  const { result } = ended;
  const summary = {
    trigger: ended.trigger,
    status: result.status,
    planned: result.planned,
    applied: result.applied.length,
    durationMs: ended.durationMs,
    apiRequests: ended.apiRequests,
  };
  switch (result.status) {
    case 'success':
      if (previousFailures > 0) log.info({ ...summary, failures: previousFailures }, 'reconcile recovered');
      else log.info(summary, 'reconcile succeeded');
      return;
    case 'stopped':
      log.warn({ ...summary, reason: result.reason }, 'reconcile stopped: the daemon is stopping');
      return;
    case 'standby':
      log.info({ ...summary, holder: result.details?.[0] }, 'standby: another process holds the scope');
      return;
    default:
      log.error(
        { ...summary, reason: result.reason, ...cappedDetails(result.details), failures },
        'reconcile did not succeed',
      );
  }
}
