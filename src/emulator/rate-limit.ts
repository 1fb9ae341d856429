/** The account's rolling-minute request limit (gaps.md "Rate limits"); off unless configured. */

const WINDOW_MS = 60_000;

export class RateLimiter {
  readonly #limit: number;
  /** Start times of the requests admitted in the last minute, oldest first. */
  readonly #starts: number[] = [];

  constructor(perMinute: number) {
    this.#limit = perMinute;
  }

  /** Admits a request now, or returns the seconds to wait until one slot frees up. */
  admit(now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    while (this.#starts.length > 0 && (this.#starts[0] ?? 0) <= now - WINDOW_MS) this.#starts.shift();
    if (this.#starts.length < this.#limit) {
      this.#starts.push(now);
      return { ok: true };
    }
    const oldest = this.#starts[0] ?? now;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
  }
}
