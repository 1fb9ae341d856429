/**
 * Decodes standard, padded base64, or returns undefined. Node's own decoder skips characters it does
 * not know and ignores bad padding; a key or certificate that only decodes that leniently is damaged
 * (or two keys were pasted together), so it is rejected here instead of being silently truncated.
 */
export function decodeStrictBase64(s: string): Buffer | undefined {
  if (s.length === 0 || s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return undefined;
  const bytes = Buffer.from(s, 'base64');
  // Re-encoding catches non-zero bits in the padding, which the regex cannot see.
  return bytes.toString('base64') === s ? bytes : undefined;
}
