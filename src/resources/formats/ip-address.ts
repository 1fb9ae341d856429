/**
 * IPv4 and IPv6 addresses: `node:net`'s grammars, and the bytes and canonical text the CIDR checks
 * and the certificate reader need.
 */
import net from 'node:net';

/** True when `s` is a dotted-quad IPv4 address (no leading zeros, no prefix, no surrounding space). */
export function isIPv4(s: string): boolean {
  return net.isIPv4(s);
}

/**
 * True when `s` is an IPv6 address in any RFC 4291 text form, including embedded IPv4
 * (`::ffff:192.0.2.1`). Zone identifiers (`fe80::1%eth0`), which `node:net` accepts, are rejected:
 * they name an interface of one host and mean nothing in a platform-wide rule.
 */
export function isIPv6(s: string): boolean {
  return !s.includes('%') && net.isIPv6(s);
}

/** The address as bytes (4 for IPv4, 16 for IPv6), or undefined when `s` is not an address. */
export function ipAddressBytes(s: string): Uint8Array | undefined {
  if (isIPv4(s)) return Uint8Array.from(s.split('.'), Number);
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
