/**
 * Addresses that tell a range's rule apart: one inside it and one just past its end (or before its
 * start, for a range that ends the address space). A plan's what-if runs them through an edge's old
 * and new rules (docs/traffic-policy.md, "What-if in plans").
 */
import { parseCidr } from './cidr.js';
import { formatIpAddress, ipAddressBytes } from './ip-address.js';

/** An address of the range, and one next to it outside it (none for `0.0.0.0/0`, `::/0`). */
interface RangeSamples {
  readonly inside: string;
  readonly outside?: string;
}

function toNumber(bytes: Uint8Array): bigint {
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

function toAddress(n: bigint, length: number): string {
  const bytes = new Uint8Array(length);
  for (let i = length - 1, v = n; i >= 0; i--, v >>= 8n) bytes[i] = Number(v & 0xffn);
  return formatIpAddress(bytes) ?? '';
}

/** The samples of a CIDR or bare address; undefined when `text` is neither. */
export function rangeSamples(text: string): RangeSamples | undefined {
  const parsed = parseCidr(text);
  if (!parsed.ok) return undefined;
  const bytes = ipAddressBytes(parsed.value.address);
  if (bytes === undefined) return undefined;
  const bits = BigInt(bytes.length * 8);
  const hostBits = bits - BigInt(parsed.value.prefix);
  const first = (toNumber(bytes) >> hostBits) << hostBits;
  const last = first + (1n << hostBits) - 1n;
  // The range's first address is its network address when it holds more than two: a host is next.
  const inside = last - first > 1n ? first + 1n : first;
  const top = (1n << bits) - 1n;
  const outside = last < top ? last + 1n : first > 0n ? first - 1n : undefined;
  return {
    inside: toAddress(inside, bytes.length),
    ...(outside === undefined ? {} : { outside: toAddress(outside, bytes.length) }),
  };
}

/** Addresses in numeric order, IPv4 before IPv6; text that is no address after both. */
export function compareAddresses(a: string, b: string): number {
  const [x, y] = [ipAddressBytes(a), ipAddressBytes(b)];
  if (x === undefined || y === undefined) return Number(x === undefined) - Number(y === undefined);
  if (x.length !== y.length) return x.length - y.length;
  const [m, n] = [toNumber(x), toNumber(y)];
  return m < n ? -1 : m > n ? 1 : 0;
}
