/**
 * The one string order of plans, exports and diagnostics is Unicode code-point order: the same on
 * every machine, whatever its locale, and the order a reader sees in a sorted list of characters.
 */
import { describe, expect, it } from 'vitest';
import { compare } from '../../src/compare.js';

/** The reference: compare the strings' code points one by one. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
  }
  return Math.sign(x.length - y.length);
}

describe('compare', () => {
  it('puts a character above U+FFFF after every character below it (plain < does not)', () => {
    const emoji = 'web \u{1F600}';
    const replacement = 'web \uFFFD';
    expect(compare(replacement, emoji)).toBe(-1);
    expect(compare(emoji, replacement)).toBe(1);
    expect(emoji < replacement).toBe(true);
  });

  it('agrees with code-point order on random strings, including surrogates and prefixes', () => {
    const alphabet = ['a', 'b', 'Z', '\u00e9', '\uE000', '\uFFFD', '\u{10000}', '\u{1F600}', '\u{1F601}'];
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = (): string =>
      Array.from({ length: next(4) }, () => alphabet[next(alphabet.length)]).join('');
    for (let i = 0; i < 5000; i++) {
      const a = word();
      const b = word();
      expect(compare(a, b), `${JSON.stringify(a)} vs ${JSON.stringify(b)}`).toBe(byCodePoints(a, b));
    }
  });
});
