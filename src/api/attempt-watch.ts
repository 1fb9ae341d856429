/**
 * The client's attempts in flight, each with its own deadline and the signal that may cut it. One
 * timer serves them all, armed for the earliest deadline, and one listener on the client's signal:
 * an attempt costs a set entry, not a timer and a listener of its own (with one request in flight
 * at a time, Node would otherwise create and tear down its timer list for every request).
 */

/** Anything an attempt can be ended with. */
export interface Abortable {
  abort(reason: Error): void;
}

/** An attempt in flight, from {@link AttemptWatch.start} to {@link AttemptWatch.end}. */
export interface WatchedAttempt {
  readonly target: Abortable;
  readonly timeoutMs: number;
  readonly deadline: number;
  /** True once the deadline, not a signal, ended the attempt. */
  timedOut: boolean;
  /** Set when the attempt listens on a signal other than the client's. */
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

export class AttemptWatch {
  readonly #clientSignal: AbortSignal;
  readonly #inFlight = new Set<WatchedAttempt>();
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (`performance.now()` time), Infinity when it is not armed. */
  #timerAt = Infinity;

  /** Attempts whose caller signal is `clientSignal` are aborted through one listener on it. */
  constructor(clientSignal: AbortSignal) {
    this.#clientSignal = clientSignal;
    clientSignal.addEventListener('abort', () => {
      for (const attempt of this.#inFlight) {
        if (attempt.signal === undefined) attempt.target.abort(clientSignal.reason as Error);
      }
    });
  }

  /** Watches `target` until {@link end}: aborted by `callerSignal`, or when `timeoutMs` passes. */
  start(target: Abortable, timeoutMs: number, callerSignal: AbortSignal | undefined): WatchedAttempt {
    const own = callerSignal !== undefined && callerSignal !== this.#clientSignal;
    const signal = own ? callerSignal : undefined;
    const onAbort = own ? () => target.abort(callerSignal.reason as Error) : undefined;
    const attempt: WatchedAttempt = {
      target,
      timeoutMs,
      deadline: performance.now() + timeoutMs,
      timedOut: false,
      signal,
      onAbort,
    };
    this.#inFlight.add(attempt);
    if (callerSignal?.aborted === true) target.abort(callerSignal.reason as Error);
    else if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
    if (attempt.deadline < this.#timerAt) this.#arm(attempt.deadline);
    return attempt;
  }

  /** Stops watching `attempt` (it settled). The timer stays armed: the next attempt likely reuses it. */
  end(attempt: WatchedAttempt): void {
    this.#inFlight.delete(attempt);
    if (attempt.onAbort !== undefined) attempt.signal?.removeEventListener('abort', attempt.onAbort);
  }

  /** Clears the timer; attempts still in flight are left to the client's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, at - performance.now()));
    // Never keeps the process alive by itself: an attempt in flight holds its socket open.
    this.#timer.unref();
  }

  /** Ends every attempt past its deadline and arms the timer for the next deadline, if any. */
  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const attempt of this.#inFlight) {
      if (attempt.timedOut) continue;
      if (attempt.deadline <= now) {
        attempt.timedOut = true;
        attempt.target.abort(new Error(`deadline of ${attempt.timeoutMs} ms passed`));
      } else if (attempt.deadline < next) next = attempt.deadline;
    }
    if (next < Infinity) this.#arm(next);
  }
}
