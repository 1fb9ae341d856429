/**
 * The one string order of acctsync's output (plans, exports, diagnostics): Unicode code-point
 * order, the same on every machine and locale, so plans are byte-identical everywhere. Plain `<`
 * compares UTF-16 code units, which puts an astral character (an emoji in a description) before
 * U+E000..U+FFFF; `localeCompare` depends on the machine's ICU data.
 */
export function compare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    // A surrogate starts a code point above U+FFFF: after every code unit that is not one.
    if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}
