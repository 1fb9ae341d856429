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

function encode(value: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < WIDTH; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** Hands out strictly increasing ids; `watermark` survives a restart through the saved state. */
export class IdGenerator {
  #last: number;
  readonly #now: () => Date;

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
    return prefix + encode(this.#last);
  }
}
