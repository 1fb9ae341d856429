/**
 * The spec limits some text fields in bytes (most `description` and `metadata` fields) and others in
 * characters (event subscriptions). JavaScript's `length` counts UTF-16 code units, which is neither.
 */

/** Size of `s` encoded as UTF-8, in bytes (a lone surrogate counts as the 3 bytes of U+FFFD it is sent as). */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Number of Unicode code points in `s` (an emoji outside the BMP counts once, not twice). */
export function charLength(s: string): number {
  let count = 0;
  // for..of iterates by code point; counting avoids building an array for huge strings.
  for (const _codePoint of s) count++;
  return count;
}
