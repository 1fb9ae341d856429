import { isIPv4, isIPv6 } from './ip-address.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

const MAX_HOSTNAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const HYPHEN = 0x2d;
const DOT = 0x2e;

/**
 * True when `s` is a hostname per RFC 1123: dot-separated labels, at most 253 characters, no
 * trailing dot. A dotted-quad IPv4 address is not a hostname even though its labels would pass
 * (RFC 1123 section 2.1 asks for exactly this distinction).
 */
export function isHostname(s: string): boolean {
  if (s.length === 0 || s.length > MAX_HOSTNAME_LENGTH || isIPv4(s)) return false;
  // Each RFC 1123 label: 1-63 ASCII letters, digits and hyphens, not starting or ending with a
  // hyphen. Read in one pass: every host name, domain and ACL rule of a config comes through here.
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    // The end of the text closes the last label as a dot would.
    const c = i < s.length ? s.charCodeAt(i) : DOT;
    if (c === DOT) {
      const length = i - start;
      if (length === 0 || length > MAX_LABEL_LENGTH) return false;
      if (s.charCodeAt(start) === HYPHEN || s.charCodeAt(i - 1) === HYPHEN) return false;
      start = i + 1;
    } else if (c !== HYPHEN && !isLetterOrDigit(c)) return false;
  }
  return true;
}

function isLetterOrDigit(c: number): boolean {
  const lower = c | 0x20;
  return (c >= 0x30 && c <= 0x39) || (lower >= 0x61 && lower <= 0x7a);
}

/** True when `s` is `*.` followed by a hostname (`*.example.com`): a wildcard only as the whole first label. */
export function isWildcardHostname(s: string): boolean {
  return s.startsWith('*.') && isHostname(s.slice(2));
}

/** A `host:port` pair; `host` is a hostname, an IPv4 address or an IPv6 address (brackets removed). */
export interface Hostport {
  readonly host: string;
  readonly port: number;
}

/** Parses `host:port` (`api.example.com:443`, `192.0.2.1:22`, `[2001:db8::1]:443`), port 1-65535. */
export function parseHostport(s: string): Result<Hostport> {
  const colon = s.lastIndexOf(':');
  if (colon === -1) return fail(`"${preview(s)}" has no port (expected host:port)`);
  const hostText = s.slice(0, colon);
  const portText = s.slice(colon + 1);

  const bracketed = hostText.startsWith('[') && hostText.endsWith(']');
  const host = bracketed ? hostText.slice(1, -1) : hostText;
  if (host === '') return fail(`"${preview(s)}" has no host (expected host:port)`);
  if (bracketed ? !isIPv6(host) : !isHostname(host) && !isIPv4(host)) {
    if (!bracketed && host.includes(':')) {
      return fail(`"${preview(s)}": write an IPv6 host in brackets, e.g. [2001:db8::1]:443`);
    }
    return fail(`"${preview(host)}" is not a hostname or IP address`);
  }

  if (!/^[1-9][0-9]{0,4}$/.test(portText) || Number(portText) > 65535) {
    return fail(`port "${preview(portText)}" is not a number from 1 to 65535`);
  }
  return ok({ host, port: Number(portText) });
}
