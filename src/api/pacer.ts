/** Waits `ms`, rejecting early if the signal fires. Injectable so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const MINUTE_MS = 60_000;
/** How far a 429 lowers the rate. */
const DECREASE = 0.5;
/** After a decrease, this many successes bring the rate back to where the 429 met it. */
const SUCCESSES_TO_RECOVER = 10;
/** The lowest pace a 429 brings a process down to. */
const MIN_RATE_PER_MINUTE = 6;
/** Starts remembered to measure the rate of a process that was not paced yet. */
const MEASURED_STARTS = 20;

interface PacerOptions {
  /** `--rate-limit`: the most this process sends; unpaced until the first 429 without it. */
  readonly ratePerMinute?: number | undefined;
  readonly sleep: Sleep;
  readonly now?: () => number;
  /** Told the pace whenever it changes (Infinity while unpaced). */
  readonly onPace?: ((ratePerMinute: number) => void) | undefined;
}

/**
 * Spreads request starts evenly, one every `60 s / rate`, and adapts the rate to the account's
 * budget, which every process on the account shares (a daemon, a merge's sync, pull-request plans):
 * a 429 halves this process's rate and holds every request until the service's `Retry-After` has
 * passed; each success raises the rate again by a constant step (additive increase, multiplicative
 * decrease), never above `--rate-limit`. Turns are taken one after the other, each measured from
 * when the previous one actually started, so a late timer never lets two bunch up.
 */
export class Pacer {
  readonly #ceiling: number;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  readonly #onPace: ((ratePerMinute: number) => void) | undefined;
  #rate: number;
  /** The additive step: a tenth of the way back to the rate a 429 met. */
  #stepPerSuccess = 0;
  #pausedUntilMs = Number.NEGATIVE_INFINITY;
  #lastDecreaseMs = Number.NEGATIVE_INFINITY;
  #lastStartMs = Number.NEGATIVE_INFINITY;
  readonly #starts: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(options: PacerOptions) {
    const { ratePerMinute } = options;
    if (ratePerMinute !== undefined && !(ratePerMinute > 0))
      throw new RangeError(`ratePerMinute must be > 0, got ${ratePerMinute}`);
    this.#ceiling = ratePerMinute ?? Infinity;
    this.#rate = this.#ceiling;
    this.#sleep = options.sleep;
    this.#now = options.now ?? (() => performance.now());
    this.#onPace = options.onPace;
  }

  /** Requests per minute this process paces itself at now; Infinity when unpaced. */
  get ratePerMinute(): number {
    return this.#rate;
  }

  /** Resolves with the start time (this pacer's clock) when the caller may start its request. */
  waitTurn(signal?: AbortSignal): Promise<number> {
    const turn = this.#queue.then(async () => {
      signal?.throwIfAborted();
      const next = Math.max(this.#lastStartMs + MINUTE_MS / this.#rate, this.#pausedUntilMs);
      const waitMs = Math.ceil(next - this.#now());
      if (waitMs > 0) await this.#sleep(waitMs, signal);
      const started = this.#now();
      this.#lastStartMs = started;
      this.#starts.push(started);
      if (this.#starts.length > MEASURED_STARTS) this.#starts.shift();
      return started;
    });
    // An aborted turn must not hold up the ones queued behind it.
    this.#queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  /**
   * The service answered 429 to a request started at `startedMs`: hold every request until
   * `retryAfterMs` has passed, and halve the rate, once for the requests that were sent together
   * (the others in flight then meet the same exhausted budget).
   */
  throttled(startedMs: number, retryAfterMs: number | undefined): void {
    const now = this.#now();
    if (retryAfterMs !== undefined) this.#pausedUntilMs = Math.max(this.#pausedUntilMs, now + retryAfterMs);
    if (startedMs <= this.#lastDecreaseMs) return;
    this.#lastDecreaseMs = now;
    const met = Number.isFinite(this.#rate) ? this.#rate : this.#measuredRate(now);
    this.#rate = Math.max(MIN_RATE_PER_MINUTE, met * DECREASE);
    this.#stepPerSuccess = (met - this.#rate) / SUCCESSES_TO_RECOVER;
    this.#onPace?.(this.#rate);
  }

  /** A request succeeded: one additive step up, to `--rate-limit` at most. */
  succeeded(): void {
    if (this.#rate >= this.#ceiling) return;
    this.#rate = Math.min(this.#ceiling, this.#rate + this.#stepPerSuccess);
    this.#onPace?.(this.#rate);
  }

  /** The rate of the recent starts, per minute: what an unpaced process was sending at. */
  #measuredRate(now: number): number {
    const first = this.#starts[0] ?? now;
    return (this.#starts.length / Math.max(now - first, 1_000)) * MINUTE_MS;
  }
}
