/** The account's rolling-minute request limit (gaps.md "Rate limits"); off unless configured. */

const MINUTE_MS = 60_000;

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  /** Start times of the requests admitted in the last window, oldest first. */
  readonly #starts: number[] = [];

  /** `limit` requests per rolling `windowMs` (a minute by default). */
  constructor(limit: number, windowMs = MINUTE_MS) {
    this.#limit = limit;
    this.#windowMs = windowMs;
  }

  /** Admits a request now, or returns the seconds to wait until one slot frees up. */
  admit(now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - this.#windowMs) this.#starts.shift();
    if (this.#starts.length < this.#limit) {
      this.#starts.push(now);
      return { ok: true };
    }
    const oldest = this.#starts[0] ?? now;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.#windowMs - now) / 1000)) };
  }
}
