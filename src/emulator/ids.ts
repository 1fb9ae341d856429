/**
 * Time-sortable ids: a kind prefix plus a fixed-width base32 suffix of a monotonic counter seeded
 * from the clock. Within a prefix, string order is creation order, so a collection kept in id order
 * pages by `before_id` with a binary search.
 */

/** Lower-case Crockford base32: its digits sort in ASCII order, so fixed-width strings sort numerically. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** 11 digits hold 55 bits: the largest safe integer fits. */
const WIDTH = 11;
/** Ids per millisecond before the counter runs ahead of the clock (which it may: it stays monotonic). */
const PER_MS = 1024;

function encode(value: number, width: number): string {
  const digits = new Array<string>(width);
  let rest = value;
  for (let i = width - 1; i >= 0; i--) {
    digits[i] = ALPHABET.charAt(rest % 32);
    rest = Math.floor(rest / 32);
  }
  return digits.join('');
}

/** The last two digits, for each of their 1024 values. */
const LOW = Array.from({ length: 1024 }, (_, value) => encode(value, 2));

/** Hands out strictly increasing ids; `watermark` survives a restart through the saved state. */
export class IdGenerator {
  #last: number;
  readonly #now: () => Date;
  /** The leading digits of the last id handed out, and the counter's value over 1024 they encode. */
  #high = Number.NaN;
  #highDigits = '';

  constructor(now: () => Date, watermark = 0) {
    this.#now = now;
    this.#last = watermark;
  }

  /** The last counter value handed out, for persistence. */
  get watermark(): number {
    return this.#last;
  }

  /** Never hand out a counter at or below `watermark` (after loading saved state). */
  advance(watermark: number): void {
    this.#last = Math.max(this.#last, watermark);
  }

  next(prefix: string): string {
    this.#last = Math.max(this.#last + 1, this.#now().getTime() * PER_MS);
    // The leading digits change about once a millisecond: only the last two are looked up anew.
    const high = Math.floor(this.#last / 1024);
    if (high !== this.#high) {
      this.#high = high;
      this.#highDigits = encode(high, WIDTH - 2);
    }
    // Joined rather than concatenated: V8 keeps a concatenation as a pair of its parts, which a
    // stored object's id would then hold for its whole life (three strings instead of one).
    return [prefix, this.#highDigits, LOW[this.#last % 1024]].join('');
  }
}
