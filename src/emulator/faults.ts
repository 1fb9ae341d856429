/** Fault injection for reliability tests: random failures, added latency, dropped connections. */
import { ErrorCode } from '../resources/index.js';
import { badRequest } from './failure.js';
import { isPlainObject } from '../plain-object.js';

/** Probabilities are in 0..1 and checked in the order listed; all default to 0. */
export interface FaultOptions {
  /** Answer 500 before handling. */
  readonly error500?: number;
  /** Answer 503 (with `Retry-After: 1`) before handling. */
  readonly error503?: number;
  /** Answer 429 (with `Retry-After: 1`) before handling. */
  readonly error429?: number;
  /** Milliseconds added before handling each API request. */
  readonly latencyMs?: number;
  /** Drop the connection after a write was committed, so the client cannot know it succeeded. */
  readonly dropAfterWrite?: number;
  /** Seed of the fault dice, so a failing test run can be replayed exactly; random when unset. */
  readonly seed?: number;
  /**
   * A member (of an object or a module) whose writes the service accepts and does not keep: an
   * update leaves its old value, a create its default. Not random: every write of it.
   */
  readonly notKept?: string;
}

const probabilities = ['error500', 'error503', 'error429', 'dropAfterWrite'] as const;

/** Checks a fault configuration from the control surface. */
export function parseFaults(value: unknown): FaultOptions {
  if (!isPlainObject(value)) throw badRequest(ErrorCode.invalidValue, 'faults must be a JSON object');
  const out: Record<string, number | string> = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'notKept') {
      if (typeof v !== 'string' || !/^[a-z_]{1,64}$/.test(v)) {
        throw badRequest(ErrorCode.invalidValue, 'notKept must be a member name', { field: key });
      }
      out[key] = v;
      continue;
    }
    if (key !== 'latencyMs' && key !== 'seed' && !(probabilities as readonly string[]).includes(key)) {
      throw badRequest(ErrorCode.unknownField, `unknown fault ${key}`, { field: key });
    }
    const max = key === 'latencyMs' ? 60_000 : key === 'seed' ? 2 ** 32 - 1 : 1;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > max) {
      throw badRequest(ErrorCode.invalidValue, `${key} must be a number between 0 and ${max}`, {
        field: key,
      });
    }
    out[key] = v;
  }
  return out;
}

/**
 * The dice for the faults: seeded (mulberry32, small and uniform enough for fault rolls) when the
 * options carry a seed, `Math.random` otherwise.
 */
function faultDice(faults: FaultOptions): () => number {
  if (faults.seed === undefined) return Math.random;
  let state = faults.seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The failure status to inject before handling, if any. */
export function injectedStatus(faults: FaultOptions, random: () => number): 500 | 503 | 429 | undefined {
  if ((faults.error500 ?? 0) > random()) return 500;
  if ((faults.error503 ?? 0) > random()) return 503;
  if ((faults.error429 ?? 0) > random()) return 429;
  return undefined;
}

/** The faults in force and their dice: the control surface replaces both at once. */
export class FaultSwitch {
  #faults: FaultOptions;
  #dice: () => number;

  constructor(faults: FaultOptions) {
    this.#faults = faults;
    this.#dice = faultDice(faults);
  }

  get current(): FaultOptions {
    return this.#faults;
  }

  set(faults: FaultOptions): void {
    this.#faults = faults;
    this.#dice = faultDice(faults);
  }

  roll(): number {
    return this.#dice();
  }
}
