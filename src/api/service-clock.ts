/**
 * The service's time, as its answers' `Date` headers tell it (RFC 9110: an origin server with a
 * clock sends one), carried forward on this process's monotonic clock. Deadlines that two
 * processes must agree on (a lease's expiry) are written and judged in it, so that neither
 * process's wall clock matters: one running 2 minutes ahead reads the same service time as any
 * other. Without any `Date` yet (or from a service that sends none) it is this machine's clock.
 */
import type { ResponseHeaders } from './options.js';

/** A `Date` header has whole seconds: the service's time was up to this much past it. */
const resolutionMs = 1000;

/**
 * What the answers so far say of the service's time, as offsets from the monotonic clock: the
 * service's time now is within [monotonic + low, monotonic + high].
 */
interface Bounds {
  readonly low: number;
  readonly high: number;
}

export class ServiceClock {
  readonly #monotonic: () => number;
  #bounds: Bounds | undefined;

  /** `monotonic`: milliseconds that only move forward (tests inject one). */
  constructor(monotonic: () => number = () => performance.now()) {
    this.#monotonic = monotonic;
  }

  /**
   * Notes an answer's `Date` (an answer without a readable one changes nothing): its request went
   * out at `sentAt` and the answer arrived at `receivedAt` (monotonic). Answers narrow the bounds;
   * one that contradicts them (the service's clock was set) replaces them.
   */
  observe(headers: ResponseHeaders, sentAt: number, receivedAt: number): void {
    const header = headers.date;
    const serviceMs = Date.parse(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (!Number.isFinite(serviceMs)) return;
    const seen = { low: serviceMs - receivedAt, high: serviceMs + resolutionMs - sentAt };
    const known = this.#bounds;
    if (known === undefined || seen.high < known.low || seen.low > known.high) this.#bounds = seen;
    else this.#bounds = { low: Math.max(known.low, seen.low), high: Math.min(known.high, seen.high) };
  }

  /** Monotonic milliseconds: what `observe`'s `sentAt` and `receivedAt` are measured in. */
  monotonic(): number {
    return this.#monotonic();
  }

  /** The service's time now is at least this (ms since the epoch). */
  earliest(): number {
    return this.#bounds === undefined ? Date.now() : this.#monotonic() + this.#bounds.low;
  }

  /** The service's time now is at most this (ms since the epoch). */
  latest(): number {
    return this.#bounds === undefined ? Date.now() : this.#monotonic() + this.#bounds.high;
  }
}
