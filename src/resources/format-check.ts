/** Maps each format name of the descriptors to its validator; undefined means the value is fine. */
import {
  isHostname,
  isWildcardHostname,
  parseCidr,
  parseHostport,
  parsePemCertificates,
  parsePrivateKeyPem,
  parseSshAclRule,
  parseSshPublicKey,
} from './formats/index.js';
import { isEventType } from './event-types.js';
import type { FormatName } from './types.js';

function reasonOf(result: { ok: true } | { ok: false; reason: string }): string | undefined {
  return result.ok ? undefined : result.reason;
}

const checks: { readonly [F in FormatName]-?: (value: string) => string | undefined } = {
  cidr: (v) => reasonOf(parseCidr(v)),
  hostname: (v) => (isHostname(v) ? undefined : `${v} is not a valid hostname`),
  domain: (v) => (isHostname(v) || isWildcardHostname(v) ? undefined : `${v} is not a valid domain name`),
  hostport: (v) => reasonOf(parseHostport(v)),
  'ssh-acl-rule': (v) => reasonOf(parseSshAclRule(v)),
  'ssh-public-key': (v) => reasonOf(parseSshPublicKey(v)),
  'pem-certificate': (v) => {
    const parsed = parsePemCertificates(v);
    if (!parsed.ok) return parsed.reason;
    return parsed.value.length === 1 ? undefined : `expected one certificate, found ${parsed.value.length}`;
  },
  'pem-certificate-chain': (v) => reasonOf(parsePemCertificates(v)),
  'pem-private-key': (v) => reasonOf(parsePrivateKeyPem(v)),
  url: (v) => {
    try {
      const u = new URL(v);
      return u.protocol === 'https:' || u.protocol === 'http:' ? undefined : `${v} is not an http(s) URL`;
    } catch {
      return `${v} is not a valid URL`;
    }
  },
  'event-type': (v) => (isEventType(v) ? undefined : `${v} is not a known event type`),
  'serial-number': (v) => (/^[0-9a-fA-F]+$/.test(v) ? undefined : `${v} is not a hexadecimal serial number`),
};

export function checkFormat(format: FormatName, value: string): string | undefined {
  return checks[format](value);
}
