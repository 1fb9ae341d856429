/**
 * When an attempt may start and when a failed one is tried again: the cap on requests in flight,
 * the pace that keeps a process within the account's shared budget (lowered by a 429, raised by
 * successes), and the retry policy that waits out a failure or gives up. The client consults all
 * three around every attempt.
 */
import type { HttpMethod } from './request.js';

/** Gives back a slot taken from a {@link ConcurrencyLimiter}; calling it twice is harmless. */
type Release = () => void;

/** Caps how many requests are in flight at once; waiters are served first come, first served. */
export class ConcurrencyLimiter {
  readonly #max: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1)
      throw new RangeError(`concurrency must be an integer >= 1, got ${max}`);
    this.#max = max;
  }

  /** Resolves once a slot is free; rejects with the signal's reason if aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<Release> {
    signal?.throwIfAborted();
    if (this.#active < this.#max) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.#waiting.splice(this.#waiting.indexOf(grant), 1);
        reject(new Error('aborted while waiting for a free slot', { cause: signal?.reason }));
      };
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.#active++;
        resolve(this.#releaser());
      };
      this.#waiting.push(grant);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#waiting.shift()?.();
    };
  }
}

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

/** When and how long to wait before trying a failed request again. Plain data: log it, diff it. */
export interface RetryPolicy {
  /** Total tries, the first one included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  /** Cap on the exponential backoff. */
  readonly maxDelayMs: number;
  /** Cap on a server's `Retry-After`, which is otherwise honoured in full. */
  readonly maxRetryAfterMs: number;
  /** Methods retried after errors that leave it unknown whether the server processed them. */
  readonly retryMethods: readonly HttpMethod[];
  readonly retryStatuses: readonly number[];
}

/**
 * Idempotent methods retry on connection errors, timeouts, 5xx and 429. POST is left out on purpose:
 * see {@link retryDelayMs} for the only cases where it is retried.
 */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  attempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
  retryMethods: Object.freeze(['GET', 'PUT', 'PATCH', 'DELETE'] as const),
  retryStatuses: Object.freeze([429, 500, 502, 503, 504]),
});

/** How one attempt failed, as far as the retry decision cares. */
export type FailedAttempt =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs: number | undefined }
  | { readonly kind: 'network'; readonly requestMayHaveBeenProcessed: boolean }
  | { readonly kind: 'timeout' };

const TOO_MANY_REQUESTS = 429;

/**
 * A 429 that says when to come back is the server pacing us, not a failure: it does not use up an
 * attempt. The command's deadline bounds how long such waits can go on.
 */
export function consumesAttempt(failure: FailedAttempt): boolean {
  return !(
    failure.kind === 'status' &&
    failure.status === TOO_MANY_REQUESTS &&
    failure.retryAfterMs !== undefined
  );
}

/** Full-jitter exponential backoff: `random() * min(max, base * 2^retryIndex)`, retryIndex from 0. */
export function backoffDelayMs(
  policy: RetryPolicy,
  retryIndex: number,
  random: () => number = Math.random,
): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

/** Parses `Retry-After` (delay in seconds or an HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names a day or month; without letters Date.parse would take "-1" as a year.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Whether the server certainly did not act on the request: rate limited (refused before processing)
 * or a connection error before any byte was sent. Only then is a POST safe to repeat; anything else
 * is left to the caller, which can look the object up and recover.
 */
function certainlyNotProcessed(failure: FailedAttempt): boolean {
  switch (failure.kind) {
    case 'status':
      return failure.status === TOO_MANY_REQUESTS;
    case 'network':
      return !failure.requestMayHaveBeenProcessed;
    case 'timeout':
      return false;
  }
}

function isRetryableFailure(policy: RetryPolicy, failure: FailedAttempt): boolean {
  return failure.kind !== 'status' || policy.retryStatuses.includes(failure.status);
}

/**
 * The delay before the next attempt, or `undefined` to give up and throw.
 * @param attempt the 1-based number of the attempts used so far, the one that just failed included
 *   (a failure that does not {@link consumesAttempt} is not counted)
 */
export function retryDelayMs(
  policy: RetryPolicy,
  method: HttpMethod,
  attempt: number,
  failure: FailedAttempt,
  random: () => number = Math.random,
): number | undefined {
  if (!isRetryableFailure(policy, failure)) return undefined;
  if (attempt >= policy.attempts && consumesAttempt(failure)) return undefined;
  if (!policy.retryMethods.includes(method) && !certainlyNotProcessed(failure)) return undefined;
  if (failure.kind === 'status' && failure.retryAfterMs !== undefined) {
    return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  }
  return backoffDelayMs(policy, attempt - 1, random);
}
