/** Waits `ms`, rejecting early if the signal fires. Injectable so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const MINUTE_MS = 60_000;

/**
 * Spreads request starts evenly: one every `60 s / ratePerMinute`, so that no more than
 * `ratePerMinute` start in any rolling minute. Turns are taken one after the other, and each is
 * measured from when the previous one actually started, so a late timer never lets two bunch up.
 */
export class Pacer {
  readonly #intervalMs: number;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  #lastStartMs = Number.NEGATIVE_INFINITY;
  #queue: Promise<void> = Promise.resolve();

  constructor(ratePerMinute: number, sleep: Sleep, now: () => number = () => performance.now()) {
    if (!(ratePerMinute > 0)) throw new RangeError(`ratePerMinute must be > 0, got ${ratePerMinute}`);
    this.#intervalMs = MINUTE_MS / ratePerMinute;
    this.#sleep = sleep;
    this.#now = now;
  }

  /** Resolves when the caller may start its request. */
  waitTurn(signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      signal?.throwIfAborted();
      const waitMs = Math.ceil(this.#lastStartMs + this.#intervalMs - this.#now());
      if (waitMs > 0) await this.#sleep(waitMs, signal);
      this.#lastStartMs = this.#now();
    });
    // An aborted turn must not hold up the ones queued behind it.
    this.#queue = turn.catch(() => undefined);
    return turn;
  }
}
