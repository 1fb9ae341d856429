/**
 * The address grammars of `node:net`'s `isIPv4` and `isIPv6`, written out: theirs are regular
 * expressions that V8 compiles on first use and again when it tiers them up, some 5-10 ms of a
 * command's start, and loading `node:net` itself costs more. `test/resources/formats/ip-address.test.ts`
 * holds them to `node:net`'s answers.
 */

/** True when `s` is a dotted-quad IPv4 address (no leading zeros, no prefix, no surrounding space). */
export function isIPv4(s: string): boolean {
  return scanIPv4(s, undefined);
}

/**
 * Reads a dotted quad in one pass, writing its octets to `out` when given: each config's host
 * names, CIDRs and ACL rules go through here, and splitting into strings cost more than the check.
 * Four parts of 1-3 decimal digits, 0-255, without a leading zero.
 */
function scanIPv4(s: string, out: Uint8Array | undefined): boolean {
  let part = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= s.length; i++) {
    // The end of the text closes the last part as a dot would.
    const c = i < s.length ? s.charCodeAt(i) : 0x2e;
    if (c === 0x2e) {
      if (digits === 0 || part > 3) return false;
      if (out !== undefined) out[part] = value;
      part++;
      value = 0;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      if (digits === 3 || (digits === 1 && value === 0)) return false;
      value = value * 10 + (c - 0x30);
      digits++;
      if (value > 255) return false;
    } else return false;
  }
  return part === 4;
}

/**
 * True when `s` is an IPv6 address in any RFC 4291 text form, including embedded IPv4
 * (`::ffff:192.0.2.1`). Zone identifiers (`fe80::1%eth0`) are rejected: they name an interface of
 * one host and mean nothing in a platform-wide rule.
 */
export function isIPv6(s: string): boolean {
  const halves = s.split('::');
  if (halves.length > 2) return false;
  let groups = 0;
  for (const [h, half] of halves.entries()) {
    if (half === '') continue;
    const parts = half.split(':');
    for (const [i, part] of parts.entries()) {
      // An embedded IPv4 address comes last, in place of two groups.
      const last = h === halves.length - 1 && i === parts.length - 1;
      if (last && part.includes('.')) {
        if (!isIPv4(part)) return false;
        groups += 2;
      } else if (isHexGroup(part)) groups += 1;
      else return false;
    }
  }
  // `::` stands for at least one group of zeros.
  return halves.length === 2 ? groups <= 7 : groups === 8;
}

/** One to four hexadecimal digits. */
function isHexGroup(part: string): boolean {
  if (part.length === 0 || part.length > 4) return false;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    const lower = c | 0x20;
    if (!((c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x66))) return false;
  }
  return true;
}

/** The address as bytes (4 for IPv4, 16 for IPv6), or undefined when `s` is not an address. */
export function ipAddressBytes(s: string): Uint8Array | undefined {
  const v4 = new Uint8Array(4);
  if (scanIPv4(s, v4)) return v4;
  if (!isIPv6(s)) return undefined;
  const bytes = new Uint8Array(16);
  ipv6Groups(s).forEach((group, i) => {
    bytes[2 * i] = group >> 8;
    bytes[2 * i + 1] = group & 0xff;
  });
  return bytes;
}

/**
 * The canonical text of an address given as 4 or 16 bytes: dotted quad for IPv4, RFC 5952 for IPv6
 * (lower case, no leading zeros, the longest run of two or more zero groups shortened to `::`, the
 * first one on a tie, and IPv4-mapped addresses written `::ffff:192.0.2.1`). Undefined for other lengths.
 */
export function formatIpAddress(bytes: Uint8Array): string | undefined {
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.length !== 16) return undefined;
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] ?? 0) << 8) | (bytes[2 * i + 1] ?? 0));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${bytes.subarray(12).join('.')}`;
  }
  const zeros = longestZeroRun(groups);
  const hex = (part: number[]): string => part.map((g) => g.toString(16)).join(':');
  if (zeros.length < 2) return hex(groups);
  return `${hex(groups.slice(0, zeros.start))}::${hex(groups.slice(zeros.start + zeros.length))}`;
}

/** The eight 16-bit groups of an address that {@link isIPv6} accepted. */
function ipv6Groups(s: string): number[] {
  const [head = '', tail] = s.split('::');
  const headGroups = groupsOf(head);
  const tailGroups = tail === undefined ? [] : groupsOf(tail);
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...new Array<number>(missing).fill(0), ...tailGroups];
}

/** Groups of a colon-separated run, where the last piece may be an embedded dotted quad. */
function groupsOf(run: string): number[] {
  if (run === '') return [];
  return run.split(':').flatMap((piece) => {
    if (!piece.includes('.')) return [parseInt(piece, 16)];
    const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

function longestZeroRun(groups: readonly number[]): { start: number; length: number } {
  let best = { start: 0, length: 0 };
  let start = 0;
  groups.forEach((group, i) => {
    if (group !== 0) {
      start = i + 1;
      return;
    }
    const length = i - start + 1;
    if (length > best.length) best = { start, length };
  });
  return best;
}
