import { formatIpAddress, ipAddressBytes } from './ip-address.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

/** An IP address or range, as written in an IP policy rule's `cidr`. */
export interface Cidr {
  readonly family: 4 | 6;
  /** The address part in canonical text (IPv6 per RFC 5952), host bits as written. */
  readonly address: string;
  /** Prefix length; 32 or 128 when the input was a bare address. */
  readonly prefix: number;
  /**
   * `address/prefix`: the form to compare and store. Host bits are kept, not masked (`10.1.2.3/8`
   * stays `10.1.2.3/8`): the platform stores the rule as the user wrote it, and masking here would
   * make acctsync see a permanent difference between the config and the live rule.
   */
  readonly canonical: string;
  /** True when bits beyond the prefix are set (`10.1.2.3/8`): legal, but often a typo worth a warning. */
  readonly hostBitsSet: boolean;
}

/**
 * The results of recent parses. The loader reads each rule's CIDR for its name, its check and its
 * host-bits warning, and the planner for its canonical form: one parse serves them all. Results
 * are never changed; the cache starts over when full, so a long-running emulator or daemon keeps
 * at most this many.
 */
const recent = new Map<string, Result<Cidr>>();
const maxRecent = 4096;
/** `ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255/128`, the longest CIDR, has 49 characters. */
const maxCidrLength = 49;

/**
 * Parses an IPv4 or IPv6 CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a bare address (`192.0.2.1`, taken
 * as `/32`; `::1`, taken as `/128`).
 */
export function parseCidr(s: string): Result<Cidr> {
  // Longer text is no CIDR, and the emulator must not keep what a client sent.
  if (s.length > maxCidrLength) return parse(s);
  let parsed = recent.get(s);
  if (parsed === undefined) {
    if (recent.size >= maxRecent) recent.clear();
    parsed = parse(s);
    recent.set(s, parsed);
  }
  return parsed;
}

function parse(s: string): Result<Cidr> {
  const slash = s.indexOf('/');
  const addressText = slash === -1 ? s : s.slice(0, slash);
  const bytes = ipAddressBytes(addressText);
  if (bytes === undefined) return fail(`"${preview(addressText)}" is not an IPv4 or IPv6 address`);
  const family = bytes.length === 4 ? 4 : 6;
  const maxPrefix = bytes.length * 8;

  let prefix = maxPrefix;
  if (slash !== -1) {
    const prefixText = s.slice(slash + 1);
    // Digits only, no sign, no leading zero: "/08" or "/+8" are more likely typos than intent.
    if (!/^(0|[1-9][0-9]*)$/.test(prefixText)) {
      return fail(`prefix "${preview(prefixText)}" is not a number (write e.g. /24)`);
    }
    prefix = Number(prefixText);
    if (prefix > maxPrefix) {
      return fail(`prefix ${preview(prefixText)} is out of range for IPv${family} (0-${maxPrefix})`);
    }
  }

  const address = formatIpAddress(bytes) ?? addressText;
  return ok({
    family,
    address,
    prefix,
    canonical: `${address}/${prefix}`,
    hostBitsSet: hasHostBits(bytes, prefix),
  });
}

function hasHostBits(bytes: Uint8Array, prefix: number): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const networkBits = Math.min(8, Math.max(0, prefix - 8 * i));
    if (((bytes[i] ?? 0) & (0xff >> networkBits)) !== 0) return true;
  }
  return false;
}
