/**
 * A held lease: renewed every third of its TTL while the holder runs, given up when the holder
 * cannot renew it in time. A holder acts only while its last successful renewal started less than
 * two thirds of the TTL ago, so it stops before anyone else may see the lease as expired (the
 * remaining third covers requests in flight and clocks a little apart); `signal` tells it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isNotFound, type ApiClient } from '../api/index.js';
import { UserError } from '../errors.js';
import type { LeaseRecord } from '../resources/ownership/lease-record.js';
import { LeaseHeldError, recordOf, retryDelay, tryAcquire } from './acquire.js';
import { thisHolder, type Holder } from './holder.js';
import { deleteLease, writeLease } from './store.js';

export interface LeaseSettings {
  /** Recorded as the holder: `acctsync sync`. */
  readonly command: string;
  readonly ttlMs: number;
}

/** The holder lost its lease while running: it stopped starting operations. */
export class LeaseLostError extends UserError {}

export class ScopeLease {
  readonly scope: string;
  readonly #client: ApiClient;
  readonly #ttlMs: number;
  readonly #lost = new AbortController();
  #record: LeaseRecord;
  readonly #id: string;
  #renewTimer: NodeJS.Timeout | undefined;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #released = false;

  private constructor(client: ApiClient, id: string, record: LeaseRecord, ttlMs: number) {
    this.scope = record.scope;
    this.#client = client;
    this.#id = id;
    this.#record = record;
    this.#ttlMs = ttlMs;
    // The record was written as if renewed then: others count its TTL from there.
    this.#renewed(Date.parse(record.expiresAt) - ttlMs);
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
    return new ScopeLease(client, attempt.held.id, attempt.held.record, settings.ttlMs);
  }

  /**
   * Takes `scope`'s lease, waiting up to `timeoutMs` for its holder to let go.
   * @throws {LeaseHeldError} naming the holder when the wait is over
   */
  static async acquire(
    client: ApiClient,
    scope: string,
    settings: LeaseSettings & { readonly timeoutMs: number },
  ): Promise<ScopeLease> {
    const until = Date.now() + settings.timeoutMs;
    const holder = thisHolder(settings.command);
    for (;;) {
      const attempt = await ScopeLease.tryAcquire(client, scope, settings, holder);
      if (attempt instanceof ScopeLease) return attempt;
      const left = until - Date.now();
      if (left <= 0) throw new LeaseHeldError(scope, attempt.heldBy);
      await sleep(Math.min(left, retryDelay(attempt.heldBy, settings.ttlMs / 3)));
    }
  }

  /** Aborted, with a {@link LeaseLostError}, once the lease may no longer be relied on. */
  get signal(): AbortSignal {
    return this.#lost.signal;
  }

  /** Stops renewing and deletes the lease object, unless it was lost already. */
  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.#stopTimers();
    if (!this.#lost.signal.aborted) await deleteLease(this.#client, this.#id);
  }

  #renewed(startedAt: number): void {
    clearTimeout(this.#deadlineTimer);
    const deadline = startedAt + (this.#ttlMs * 2) / 3 - Date.now();
    this.#deadlineTimer = setTimeout(
      () => this.#lose(`it could not be renewed within ${Math.round((this.#ttlMs * 2) / 3)} ms`),
      Math.max(0, deadline),
    );
    this.#deadlineTimer.unref();
    this.#schedule(this.#ttlMs / 3);
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#renewTimer);
    this.#renewTimer = setTimeout(() => void this.#renew(), delayMs);
    this.#renewTimer.unref();
  }

  async #renew(): Promise<void> {
    const startedAt = Date.now();
    const record = recordOf(this.scope, this.#record, this.#record.since, this.#record.nonce, this.#ttlMs);
    try {
      await writeLease(this.#client, this.#id, record);
      if (this.#released || this.#lost.signal.aborted) return;
      this.#record = record;
      this.#renewed(startedAt);
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
        details: ['No operation was started after that; run again once the scope is free.'],
      }),
    );
  }

  #stopTimers(): void {
    clearTimeout(this.#renewTimer);
    clearTimeout(this.#deadlineTimer);
  }
}
