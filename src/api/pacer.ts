/** Waits `ms`, rejecting early if the signal fires. Injectable so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const MINUTE_MS = 60_000;
/** How far a 429 lowers the rate. */
const DECREASE = 0.5;
/** The additive step is this fraction of the highest rate a 429 met: ten successes climb back from a halving. */
const STEP_FRACTION = 0.05;
/** The lowest pace a 429 brings a process down to. */
const MIN_RATE_PER_MINUTE = 6;
/** Starts remembered to measure the rate a process sends at. */
const MEASURED_STARTS = 20;
/** Fewer starts than this are no rate: a 429 then only holds the process for its `Retry-After`. */
const MIN_MEASURED_STARTS = 5;
/** A burst's rate is measured over at least this long: requests sent at once are no rate either. */
const MIN_MEASURED_SPAN_MS = 100;

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
 * a 429 halves the rate this process sends at (what `--rate-limit` or an earlier 429 allowed; an
 * unpaced process's measured rate of its recent requests) and holds every request until the service's `Retry-After` has
 * passed; each success raises the rate again by a constant step, a twentieth of the highest rate a
 * 429 met (additive increase, multiplicative decrease), never above `--rate-limit`. Turns are taken one after the other, each measured from
 * when the previous one actually started, so a late timer never lets two bunch up.
 */
export class Pacer {
  readonly #ceiling: number;
  readonly #sleep: Sleep;
  readonly #now: () => number;
  readonly #onPace: ((ratePerMinute: number) => void) | undefined;
  #rate: number;
  /** The highest rate a 429 met: the additive step is a constant fraction of it. */
  #peak = 0;
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
      let waitMs = this.#waitMs();
      while (waitMs > 0) {
        const pausedUntil = this.#pausedUntilMs;
        await this.#sleep(waitMs, signal);
        // A 429 that held the process meanwhile holds this turn too.
        waitMs = this.#pausedUntilMs > pausedUntil ? this.#waitMs() : 0;
      }
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

  #waitMs(): number {
    const next = Math.max(this.#lastStartMs + MINUTE_MS / this.#rate, this.#pausedUntilMs);
    return Math.ceil(next - this.#now());
  }

  /**
   * The service answered 429 to a request started at `startedMs`: hold every request until
   * `retryAfterMs` has passed, and halve the rate, once for the requests that were sent together
   * (the others in flight then meet the same exhausted budget).
   */
  throttled(startedMs: number, retryAfterMs: number | undefined): void {
    const now = this.#now();
    const met = Number.isFinite(this.#rate) ? this.#rate : this.#measuredRate(now);
    if (retryAfterMs !== undefined) {
      this.#pausedUntilMs = Math.max(this.#pausedUntilMs, now + retryAfterMs);
      // The rate of an unpaced process is that of its burst since the last hold, not across it.
      this.#starts.length = 0;
    }
    if (startedMs <= this.#lastDecreaseMs || !Number.isFinite(met)) return;
    this.#lastDecreaseMs = now;
    this.#peak = Math.max(this.#peak, met);
    this.#rate = Math.max(MIN_RATE_PER_MINUTE, met * DECREASE);
    this.#onPace?.(this.#rate);
  }

  /** A request succeeded: one additive step up, to `--rate-limit` at most. */
  succeeded(): void {
    if (this.#rate >= this.#ceiling) return;
    this.#rate = Math.min(this.#ceiling, this.#rate + this.#peak * STEP_FRACTION);
    this.#onPace?.(this.#rate);
  }

  /** The rate of the recent starts, per minute (Infinity for too few to tell). */
  #measuredRate(now: number): number {
    const first = this.#starts[0];
    if (first === undefined || this.#starts.length < MIN_MEASURED_STARTS) return Infinity;
    return (this.#starts.length / Math.max(now - first, MIN_MEASURED_SPAN_MS)) * MINUTE_MS;
  }
}
