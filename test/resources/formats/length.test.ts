import { describe, expect, it } from 'vitest';

import { byteLength, charLength } from '../../../src/resources/formats/index.js';

describe('byteLength and charLength', () => {
  it.each([
    ['', 0, 0],
    ['abc', 3, 3],
    ['é', 2, 1],
    ['€', 3, 1],
    ['😀', 4, 1],
    ['a😀b', 6, 3],
  ])('%j is %i bytes and %i characters', (s, bytes, chars) => {
    expect(byteLength(s)).toBe(bytes);
    expect(charLength(s)).toBe(chars);
  });

  it('counts a lone surrogate as the replacement character it is sent as', () => {
    expect(byteLength('\ud800')).toBe(3);
    expect(charLength('\ud800')).toBe(1);
  });

  it('handles the spec limits exactly at the boundary', () => {
    expect(byteLength('é'.repeat(128))).toBe(256); // over a 255-byte limit at only 128 characters
    expect(charLength('😀'.repeat(255))).toBe(255);
  });
});
