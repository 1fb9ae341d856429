/**
 * A held lease: renewed every third of its TTL while the holder runs. Its record expires a TTL past
 * the latest the service's time could be when the renewal was sent; the holder writes only while
 * the latest the service's time can be is more than a third of the TTL before that expiry, so it
 * stops before anyone may see the lease as expired (the last third covers requests in flight).
 * `check()` says so synchronously before each write; `signal` tells the rest of the run.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound, type ApiClient, type ServiceClock } from '../api/index.js';
import { UserError } from '../errors.js';
import type { LeaseRecord } from '../resources/index.js';
import { LeaseHeldError, recordOf, retryDelay, tryAcquire } from './acquire.js';
import { thisHolder, type Holder } from './holder.js';
import { deleteLease, writeLease } from './store.js';

export interface LeaseSettings {
  /** Recorded as the holder: `acctsync sync`. */
  readonly command: string;
  readonly ttlMs: number;
  /**
   * The timers it renews, gives up and waits for a held scope by; the process's own unless a test
   * brings its clock (on which the client's `monotonic` runs too).
   */
  readonly timers?: LeaseTimers;
}

export interface LeaseTimers {
  /** Schedules `run` in `ms` with a timer that keeps no process alive: a renewal, a deadline. */
  set(run: () => void, ms: number): unknown;
  /** Cancels what {@link LeaseTimers.set} scheduled. */
  clear(timer: unknown): void;
  /** Resolves in `ms`, keeping the process alive: waiting for a held scope is all it does then. */
  wait(ms: number): Promise<void>;
}

const processTimers: LeaseTimers = {
  set: (run, ms) => setTimeout(run, ms).unref(),
  clear: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  wait: (ms) => sleep(ms),
};

/** How {@link ScopeLease.acquire} waits, and what it says while it does. */
interface AcquireSettings extends LeaseSettings {
  readonly timeoutMs: number;
  /** The command that breaks the lease, as the user would run it; named when the wait is over. */
  readonly unlock?: string;
  /**
   * Told once, when the scope is held and the wait starts: who holds it and until when it waits
   * (the service's time, as the holder's expiry is).
   */
  readonly onWait?: (holder: LeaseRecord, until: Date) => void;
}

/** The holder lost its lease while running: it stopped starting operations. */
export class LeaseLostError extends UserError {}

export class ScopeLease {
  readonly scope: string;
  /** The forged record deleted to take the lease, when there was one (docs/lease.md). */
  readonly forged: LeaseRecord | undefined;
  readonly #client: ApiClient;
  readonly #clock: ServiceClock;
  readonly #timers: LeaseTimers;
  readonly #lost = new AbortController();
  readonly #id: string;
  #record: LeaseRecord;
  /** The TTL the record was written with, and the one the next renewal writes. */
  #recordTtlMs: number;
  #ttlMs: number;
  /** Renewals one at a time: the record the holder believes in is the last one the service kept. */
  #renewals: Promise<void> = Promise.resolve();
  #renewTimer: unknown;
  #deadlineTimer: unknown;
  #released = false;

  private constructor(
    client: ApiClient,
    held: { readonly id: string; readonly record: LeaseRecord },
    settings: LeaseSettings,
    forged: LeaseRecord | undefined,
  ) {
    const { ttlMs } = settings;
    this.scope = held.record.scope;
    this.forged = forged;
    this.#client = client;
    this.#clock = client.serviceClock;
    this.#timers = settings.timers ?? processTimers;
    this.#id = held.id;
    this.#record = held.record;
    this.#recordTtlMs = ttlMs;
    this.#ttlMs = ttlMs;
    this.#armed();
  }

  /** Takes `scope`'s lease, or returns the record of the process holding it. */
  static async tryAcquire(
    client: ApiClient,
    scope: string,
    settings: LeaseSettings,
    holder: Holder = thisHolder(settings.command),
  ): Promise<ScopeLease | { readonly heldBy: LeaseRecord }> {
    const attempt = await tryAcquire(client, scope, holder, settings.ttlMs);
    if ('heldBy' in attempt) return attempt;
    return new ScopeLease(client, attempt.held, settings, attempt.forged);
  }

  /**
   * Takes `scope`'s lease, waiting up to `timeoutMs` for its holder to let go.
   * @throws {LeaseHeldError} naming the holder when the wait is over
   */
  static async acquire(client: ApiClient, scope: string, settings: AcquireSettings): Promise<ScopeLease> {
    const clock = client.serviceClock;
    const timers = settings.timers ?? processTimers;
    const until = clock.monotonic() + settings.timeoutMs;
    const holder = thisHolder(settings.command);
    let told = false;
    for (;;) {
      const attempt = await ScopeLease.tryAcquire(client, scope, settings, holder);
      if (attempt instanceof ScopeLease) return attempt;
      const left = until - clock.monotonic();
      if (left <= 0) throw new LeaseHeldError(scope, attempt.heldBy, settings.unlock);
      if (!told) settings.onWait?.(attempt.heldBy, new Date(clock.earliest() + left));
      told = true;
      await timers.wait(Math.min(left, retryDelay(attempt.heldBy, settings.ttlMs / 3, clock)));
    }
  }

  /** Aborted, with a {@link LeaseLostError}, once the lease may no longer be relied on. */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /**
   * Throws the {@link LeaseLostError} when this holder may no longer write; synchronous, so that
   * nothing runs between the check and the request it guards. Called before every write and every
   * recovery request, however long the event loop stalled before it.
   */
  check(): void {
    if (!this.#lost.signal.aborted && this.#clock.latest() >= this.#stopAt())
      this.#lose(`it was not renewed in time (${Math.round((this.#recordTtlMs * 2) / 3)} ms of its TTL)`);
    this.#lost.signal.throwIfAborted();
  }

  /**
   * Renews now with `ttlMs` and keeps renewing with it: a daemon's shorter TTL while it writes, a
   * longer one while it waits (docs/lease.md). Resolves once the renewal is answered.
   */
  async retime(ttlMs: number): Promise<void> {
    if (ttlMs === this.#ttlMs) return;
    this.#ttlMs = ttlMs;
    await this.#renew();
  }

  /** Stops renewing and deletes the lease object, unless it was lost already. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.#stopTimers();
    await this.#renewals;
    if (!this.#lost.signal.aborted) await deleteLease(this.#client, this.#id);
  }

  /** The service's time from which this holder may no longer write. */
  #stopAt(): number {
    return Date.parse(this.#record.expiresAt) - this.#recordTtlMs / 3;
  }

  /** Timers for the next renewal and for the moment the lease stops being reliable. */
  #armed(): void {
    this.#stopTimers();
    const onDeadline = (): void => {
      if (this.#clock.latest() < this.#stopAt()) this.#armed();
      else this.#lose(`it could not be renewed within ${Math.round((this.#recordTtlMs * 2) / 3)} ms`);
    };
    this.#deadlineTimer = this.#timers.set(onDeadline, Math.max(0, this.#stopAt() - this.#clock.latest()));
    this.#schedule(this.#ttlMs / 3);
  }

  #schedule(delayMs: number): void {
    this.#timers.clear(this.#renewTimer);
    this.#renewTimer = this.#timers.set(() => void this.#renew(), delayMs);
  }

  #renew(): Promise<void> {
    this.#renewals = this.#renewals.then(() => this.#renewOnce());
    return this.#renewals;
  }

  async #renewOnce(): Promise<void> {
    if (this.#released || this.#lost.signal.aborted) return;
    const ttlMs = this.#ttlMs;
    const record = recordOf(
      this.scope,
      this.#record,
      this.#record.since,
      this.#record.nonce,
      ttlMs,
      this.#clock,
    );
    try {
      await writeLease(this.#client, this.#id, record);
      if (this.#released || this.#lost.signal.aborted) return;
      this.#record = record;
      this.#recordTtlMs = ttlMs;
      this.#armed();
    } catch (err) {
      if (this.#released || this.#lost.signal.aborted) return;
      if (isNotFound(err)) this.#lose('someone broke it (acctsync unlock) or took it over');
      // Anything else (the network, a 5xx): try again soon; the deadline decides when it is lost.
      else this.#schedule(this.#ttlMs / 6);
    }
  }

  #lose(why: string): void {
    if (this.#released || this.#lost.signal.aborted) return;
    this.#stopTimers();
    this.#lost.abort(
      new LeaseLostError(`lost the lease on scope ${this.scope}: ${why}`, {
        details: ['No write was sent after that; run again once the scope is free.'],
      }),
    );
  }

  #stopTimers(): void {
    this.#timers.clear(this.#renewTimer);
    this.#timers.clear(this.#deadlineTimer);
  }
}
