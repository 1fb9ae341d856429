/**
 * A daemon's hold on its scope: taken when free, kept (renewed) while the daemon runs, taken again
 * when the scope changes, and handed back at shutdown. While another process holds the scope the
 * daemon is a standby, asking again as the holder's lease would expire.
 *
 * Each renewal is an update of an SSH credential, an event in the account: between reconciles,
 * when nothing is written, the lease is kept with the longer idle TTL and renewed as seldom; a
 * reconcile that writes turns it to `--lock-ttl` first and back after (docs/lease.md).
 */
import type { ApiClient } from '../api/index.js';
import type { LeaseRecord } from '../resources/index.js';
import { retryDelay } from './acquire.js';
import { idleTtlFactor, maxLeaseTtlMs } from './default-ttl.js';
import { describeHolder } from './holder.js';
import { ScopeLease, type LeaseSettings } from './lease.js';

/** What a reconcile holding the scope writes under. */
interface HeldScope {
  readonly held: true;
  /** Aborted once the lease is lost. */
  readonly signal: AbortSignal;
  /** Throws when the lease may no longer be relied on: before each write. */
  readonly check: () => void;
  /** Before the first write: the lease on its writing TTL. */
  readonly writing: () => Promise<void>;
  /** After the last write: the lease back on its idle TTL. */
  readonly idle: () => void;
  /** The forged record taken over to hold it, once, when this reconcile took the lease. */
  readonly forged?: LeaseRecord | undefined;
}

export type Hold =
  | HeldScope
  | {
      readonly held: false;
      /** `scope production is held by 'acctsync sync' on ci-4 (pid 88) since ...` */
      readonly holder: string;
      /** When to ask again. */
      readonly retryInMs: number;
    };

/** The TTL an idle daemon keeps its lease with. */
function idleTtlOf(ttlMs: number): number {
  return Math.max(ttlMs, Math.min(maxLeaseTtlMs, ttlMs * idleTtlFactor));
}

export class LeaseKeeper {
  readonly #client: ApiClient;
  readonly #settings: LeaseSettings;
  readonly #idleTtlMs: number;
  readonly #onLost: () => void;
  #lease: ScopeLease | undefined;

  /** `onLost` runs when a held lease is lost between two calls of {@link LeaseKeeper.hold}. */
  constructor(client: ApiClient, settings: LeaseSettings, onLost: () => void) {
    this.#client = client;
    this.#settings = settings;
    this.#idleTtlMs = idleTtlOf(settings.ttlMs);
    this.#onLost = onLost;
  }

  /** Holds `scope`, taking its lease if it is free. */
  async hold(scope: string): Promise<Hold> {
    const current = this.#lease;
    if (current !== undefined && current.scope === scope && !current.signal.aborted)
      return this.#held(current, undefined);
    await this.release();
    const settings = { ...this.#settings, ttlMs: this.#idleTtlMs };
    const attempt = await ScopeLease.tryAcquire(this.#client, scope, settings);
    if (attempt instanceof ScopeLease) {
      this.#lease = attempt;
      attempt.signal.addEventListener('abort', () => this.#onLost(), { once: true });
      return this.#held(attempt, attempt.forged);
    }
    return {
      held: false,
      holder: `scope ${scope} is held by ${describeHolder(attempt.heldBy)}`,
      retryInMs: retryDelay(attempt.heldBy, this.#settings.ttlMs / 3, this.#client.serviceClock),
    };
  }

  /** Hands the lease back (at shutdown, or before taking another scope's). */
  async release(): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    await lease?.release();
  }

  #held(lease: ScopeLease, forged: LeaseRecord | undefined): HeldScope {
    return {
      held: true,
      signal: lease.signal,
      check: () => lease.check(),
      writing: () => lease.retime(this.#settings.ttlMs),
      idle: () => void lease.retime(this.#idleTtlMs).catch(() => undefined),
      ...(forged === undefined ? {} : { forged }),
    };
  }
}
