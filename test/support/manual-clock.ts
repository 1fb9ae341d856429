/**
 * A clock a test moves by hand: the service's wall time (an emulator's `now`), the monotonic time a
 * client carries the service's time on, and timers (a lease's renewals and deadline), all moved
 * together by {@link ManualClock.advance}. Nothing waits on real time.
 */
import type { LeaseTimers } from '../../src/lease/lease.js';

interface Pending {
  readonly at: number;
  readonly run: () => void;
}

export class ManualClock {
  #wall: number;
  #monotonic = 0;
  readonly #pending = new Set<Pending>();

  constructor(start = new Date('2026-01-01T00:00:00Z')) {
    this.#wall = start.getTime();
  }

  /** The wall time, for an emulator's `now`. */
  readonly now = (): Date => new Date(this.#wall);

  /** Milliseconds that only move forward, for a client's `monotonic`. */
  readonly monotonic = (): number => this.#monotonic;

  readonly timers: LeaseTimers = {
    set: (run, ms) => {
      const pending = { at: this.#monotonic + Math.max(0, ms), run };
      this.#pending.add(pending);
      return pending;
    },
    clear: (timer) => {
      this.#pending.delete(timer as Pending);
    },
  };

  /** Moves time on by `ms`, running each timer that falls due on the way, in order. */
  advance(ms: number): void {
    const until = this.#monotonic + ms;
    for (;;) {
      const next = [...this.#pending].filter((p) => p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      this.#pending.delete(next);
      this.#move(next.at);
      next.run();
    }
    this.#move(until);
  }

  #move(to: number): void {
    this.#wall += to - this.#monotonic;
    this.#monotonic = to;
  }
}
