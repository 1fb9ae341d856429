import { createPrivateKey, X509Certificate } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { parsePemCertificates, type ParsedCertificate } from '../../../src/resources/formats/index.js';
import { fingerprints, pki } from './pki-fixtures.js';

const fingerprintOf = fingerprints('certificate-fingerprints.txt', 0, 1);

const ROOT_NAME = {
  subjectOrganization: 'Acme Test',
  subjectOrganizationalUnit: 'Test PKI',
  subjectLocality: 'San Francisco',
  subjectProvince: 'California',
  subjectCountry: 'US',
};

const expected: Record<string, ParsedCertificate> = {
  'ca.crt': {
    subjectCommonName: 'Acme Test Root CA',
    subjectAlternativeNames: { dnsNames: [], ips: [] },
    notBefore: '2025-01-01T00:00:00Z',
    notAfter: '2035-01-01T00:00:00Z',
    keyUsages: ['cert_sign', 'crl_sign'],
    extendedKeyUsages: [],
    serialNumber: '1000',
    issuerCommonName: 'Acme Test Root CA',
    ...ROOT_NAME,
    publicKeyType: 'rsa',
    isCA: true,
    fingerprintSha256: fingerprintOf.get('ca.crt') ?? '',
  },
  'leaf-rsa.crt': {
    subjectCommonName: 'api.example.com',
    subjectAlternativeNames: { dnsNames: ['api.example.com', '*.api.example.com'], ips: ['192.0.2.10'] },
    notBefore: '2025-01-01T00:00:00Z',
    notAfter: '2030-01-01T00:00:00Z',
    keyUsages: ['digital_signature', 'key_encipherment'],
    extendedKeyUsages: ['server_auth'],
    serialNumber: 'abcdef01',
    issuerCommonName: 'Acme Test Root CA',
    subjectOrganization: 'Acme Test',
    subjectOrganizationalUnit: '',
    subjectLocality: '',
    subjectProvince: '',
    subjectCountry: 'US',
    publicKeyType: 'rsa',
    isCA: false,
    fingerprintSha256: fingerprintOf.get('leaf-rsa.crt') ?? '',
  },
  'leaf-ecdsa.crt': {
    subjectCommonName: 'ecdsa.example.com',
    subjectAlternativeNames: { dnsNames: ['ecdsa.example.com'], ips: ['2001:db8::10'] },
    notBefore: '2025-01-01T00:00:00Z',
    notAfter: '2030-01-01T00:00:00Z',
    keyUsages: ['digital_signature'],
    extendedKeyUsages: ['server_auth', 'client_auth'],
    serialNumber: 'f',
    issuerCommonName: 'Acme Test Root CA',
    subjectOrganization: 'Acme, Inc.',
    subjectOrganizationalUnit: 'First Unit',
    subjectLocality: 'Zürich',
    subjectProvince: '',
    subjectCountry: 'CH',
    publicKeyType: 'ecdsa',
    isCA: false,
    fingerprintSha256: fingerprintOf.get('leaf-ecdsa.crt') ?? '',
  },
  'leaf-ed25519.crt': {
    subjectCommonName: 'ed25519.example.com',
    subjectAlternativeNames: { dnsNames: ['ed25519.example.com'], ips: [] },
    notBefore: '2025-01-01T00:00:00Z',
    notAfter: '2030-01-01T00:00:00Z',
    keyUsages: ['digital_signature', 'content_commitment'],
    extendedKeyUsages: [
      'client_auth',
      'code_signing',
      'email_protection',
      'time_stamping',
      'ocsp_signing',
      '1.3.6.1.4.1.55555.1',
    ],
    serialNumber: 'ff01',
    issuerCommonName: 'Acme Test Root CA',
    subjectOrganization: '',
    subjectOrganizationalUnit: '',
    subjectLocality: '',
    subjectProvince: '',
    subjectCountry: '',
    publicKeyType: 'ed25519',
    isCA: false,
    fingerprintSha256: fingerprintOf.get('leaf-ed25519.crt') ?? '',
  },
};

describe('parsePemCertificates', () => {
  it('has a fingerprint for every fixture', () => {
    expect([...fingerprintOf.keys()].sort()).toEqual(Object.keys(expected).sort());
    expect(fingerprintOf.get('ca.crt')).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it.each(Object.entries(expected))('parses %s', (file, fields) => {
    expect(parsePemCertificates(pki(file))).toEqual({ ok: true, value: [fields] });
  });

  it('parses a chain leaf first', () => {
    expect(parsePemCertificates(pki('chain-rsa.pem'))).toEqual({
      ok: true,
      value: [expected['leaf-rsa.crt'], expected['ca.crt']],
    });
  });

  it('ignores text around the blocks and CRLF line ends', () => {
    const withText = `Subject: api.example.com\r\n${pki('leaf-rsa.crt').replaceAll('\n', '\r\n')}\r\ntrailing note`;
    expect(parsePemCertificates(withText)).toEqual({ ok: true, value: [expected['leaf-rsa.crt']] });
  });

  const [leafHead = '', leafBody = ''] = pki('leaf-rsa.crt').split('\n', 2);
  it.each([
    ['', 'the PEM text is empty'],
    [' \n\t', 'the PEM text is empty'],
    ['not a certificate', 'no PEM block found in "not a certificate"'],
    [pki('leaf-rsa.key'), 'block 1 is a PRIVATE KEY, but only CERTIFICATE blocks are allowed here'],
    [
      pki('leaf-rsa.crt') + pki('leaf-rsa.key'),
      'block 2 is a PRIVATE KEY, but only CERTIFICATE blocks are allowed here',
    ],
    [`${leafHead}\n${leafBody}\n`, 'the CERTIFICATE block (block 1) has no "-----END CERTIFICATE-----" line'],
    [
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      'certificate 1 is not a valid X.509 certificate',
    ],
    [
      '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----',
      'the CERTIFICATE block (block 1) is not valid base64',
    ],
    [
      '-----BEGIN CERTIFICATE-----\nMII*\n-----END CERTIFICATE-----',
      'the CERTIFICATE block (block 1) is not valid base64',
    ],
    [
      pki('ca.crt').replace('-----END CERTIFICATE-----', ''),
      'the CERTIFICATE block (block 1) has no "-----END CERTIFICATE-----" line',
    ],
  ])('rejects %j', (pem, reason) => {
    expect(parsePemCertificates(pem)).toEqual({ ok: false, reason });
  });

  it('rejects a CERTIFICATE block holding anything but exactly one certificate', () => {
    const der = new X509Certificate(pki('leaf-rsa.crt')).raw;
    const key = createPrivateKey(pki('leaf-rsa.key')).export({ format: 'der', type: 'pkcs8' });
    for (const body of [Buffer.concat([der, Buffer.of(0x05, 0x00)]), key]) {
      const pem = `-----BEGIN CERTIFICATE-----\n${body.toString('base64')}\n-----END CERTIFICATE-----\n`;
      expect(parsePemCertificates(pem)).toEqual({
        ok: false,
        reason: 'certificate 1 is not a valid X.509 certificate',
      });
    }
  });

  it('rejects a certificate node:crypto reads but whose key usage is malformed', () => {
    const der = new X509Certificate(pki('leaf-rsa.crt')).raw;
    // keyUsage OID, critical, OCTET STRING { BIT STRING with 5 unused bits }: claim 9 unused bits instead.
    const keyUsage = der.indexOf(Buffer.from('0603551d0f0101ff04040302', 'hex'));
    expect(der[keyUsage + 12]).toBe(5);
    der[keyUsage + 12] = 9;
    const pem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64')}\n-----END CERTIFICATE-----\n`;
    expect(parsePemCertificates(pem)).toEqual({
      ok: false,
      reason: 'certificate 1: its extensions are malformed',
    });
  });

  it('rejects a damaged certificate', () => {
    const lines = pki('leaf-rsa.crt').split('\n');
    lines.splice(3, 2); // drop two lines of the body: the DER no longer adds up
    expect(parsePemCertificates(lines.join('\n'))).toEqual({
      ok: false,
      reason: 'certificate 1 is not a valid X.509 certificate',
    });
  });
});
