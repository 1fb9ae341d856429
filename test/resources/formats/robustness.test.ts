import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import * as formats from '../../../src/resources/formats/index.js';

/** Inputs no validator should ever accept, and none should ever throw on. */
const hostile: [string, string][] = [
  ['empty', ''],
  ['binary', randomBytes(4096).toString('latin1')],
  ['NUL bytes', '\u0000'.repeat(100)],
  ['lone surrogates', '\ud800\udfff\udc00'],
  ['1 MB of letters', 'a'.repeat(1_000_000)],
  ['1 MB of colons', ':'.repeat(1_000_000)],
  ['1 MB of PEM-looking lines', '-----BEGIN CERTIFICATE-----\n'.repeat(40_000)],
  [
    'a PEM block of garbage',
    `-----BEGIN CERTIFICATE-----\n${randomBytes(3000).toString('base64')}\n-----END CERTIFICATE-----`,
  ],
  [
    'a PEM key block of garbage',
    `-----BEGIN PRIVATE KEY-----\n${randomBytes(3000).toString('base64')}\n-----END PRIVATE KEY-----`,
  ],
];

const parsers = {
  parseCidr: formats.parseCidr,
  parseHostport: formats.parseHostport,
  parseSshAclRule: formats.parseSshAclRule,
  parseSshPublicKey: formats.parseSshPublicKey,
  parsePemCertificates: formats.parsePemCertificates,
  parsePrivateKeyPem: formats.parsePrivateKeyPem,
};
const predicates = {
  isIPv4: formats.isIPv4,
  isIPv6: formats.isIPv6,
  isHostname: formats.isHostname,
  isWildcardHostname: formats.isWildcardHostname,
  privateKeyMatchesCertificate: (s: string) => formats.privateKeyMatchesCertificate(s, s),
};

describe.each(hostile)('on %s input', (_, input) => {
  it.each(Object.entries(parsers))('%s returns a short reason', (_name, parse) => {
    const result = parse(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason.length).toBeLessThan(300);
  });

  it.each(Object.entries(predicates))('%s returns false', (_name, predicate) => {
    expect(predicate(input)).toBe(false);
  });

  it('length helpers count it', () => {
    expect(formats.byteLength(input)).toBeGreaterThanOrEqual(formats.charLength(input));
  });
});
