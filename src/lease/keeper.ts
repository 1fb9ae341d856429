/**
 * A daemon's hold on its scope: taken when free, kept (renewed) while the daemon runs, taken again
 * when the scope changes, and handed back at shutdown. While another process holds the scope the
 * daemon is a standby, asking again as the holder's lease would expire.
 */
import type { ApiClient } from '../api/index.js';
import { retryDelay } from './acquire.js';
import { describeHolder } from './holder.js';
import { ScopeLease, type LeaseSettings } from './lease.js';

export type Hold =
  | { readonly held: true; readonly signal: AbortSignal }
  | {
      readonly held: false;
      /** `scope production is held by 'acctsync sync' on ci-4 (pid 88) since ...` */
      readonly holder: string;
      /** When to ask again. */
      readonly retryInMs: number;
    };

export class LeaseKeeper {
  readonly #client: ApiClient;
  readonly #settings: LeaseSettings;
  readonly #onLost: () => void;
  #lease: ScopeLease | undefined;

  /** `onLost` runs when a held lease is lost between two calls of {@link LeaseKeeper.hold}. */
  constructor(client: ApiClient, settings: LeaseSettings, onLost: () => void) {
    this.#client = client;
    this.#settings = settings;
    this.#onLost = onLost;
  }

  /** Holds `scope`, taking its lease if it is free. */
  async hold(scope: string): Promise<Hold> {
    const current = this.#lease;
    if (current !== undefined && current.scope === scope && !current.signal.aborted)
      return { held: true, signal: current.signal };
    await this.release();
    const attempt = await ScopeLease.tryAcquire(this.#client, scope, this.#settings);
    if (attempt instanceof ScopeLease) {
      this.#lease = attempt;
      attempt.signal.addEventListener('abort', () => this.#onLost(), { once: true });
      return { held: true, signal: attempt.signal };
    }
    return {
      held: false,
      holder: `scope ${scope} is held by ${describeHolder(attempt.heldBy)}`,
      retryInMs: retryDelay(attempt.heldBy, this.#settings.ttlMs / 3),
    };
  }

  /** Hands the lease back (at shutdown, or before taking another scope's). */
  async release(): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    await lease?.release();
  }
}
