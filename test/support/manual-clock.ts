/**
 * A clock a test moves by hand: the service's wall time (an emulator's `now`), the monotonic time a
 * client carries the service's time on, and timers (a lease's renewals, deadline and waits), all moved
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
  readonly #onSet: (() => void)[] = [];
  readonly #onWait: ((ms: number) => void)[] = [];

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
      for (const tell of this.#onSet.splice(0)) tell();
      return pending;
    },
    clear: (timer) => {
      this.#pending.delete(timer as Pending);
    },
    wait: (ms) => {
      const waited = new Promise<void>((resolve) => this.timers.set(resolve, ms));
      for (const tell of this.#onWait.splice(0)) tell(ms);
      return waited;
    },
  };

  /** Resolves with how long the next wait is, when a writer waiting for a held scope starts it. */
  nextWait(): Promise<number> {
    return new Promise((resolve) => this.#onWait.push(resolve));
  }

  /**
   * Resolves the next time a timer is set (a wait's included): a lease arms its next renewal once
   * the last one is answered, and moving the clock before that would move it past a renewal that
   * is not set yet.
   */
  nextTimer(): Promise<void> {
    return new Promise((resolve) => this.#onSet.push(resolve));
  }

  /** Moves time on by `ms`, running each timer that falls due on the way, in order; how many ran. */
  advance(ms: number): number {
    const until = this.#monotonic + ms;
    let ran = 0;
    for (;;) {
      const next = [...this.#pending].filter((p) => p.at <= until).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      this.#pending.delete(next);
      this.#move(next.at);
      next.run();
      ran++;
    }
    this.#move(until);
    return ran;
  }

  #move(to: number): void {
    this.#wall += to - this.#monotonic;
    this.#monotonic = to;
  }
}
