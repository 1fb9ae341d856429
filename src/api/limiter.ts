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
