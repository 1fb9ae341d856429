import { createPrivateKey, generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { parsePrivateKeyPem, privateKeyMatchesCertificate } from '../../../src/resources/formats/index.js';
import { pki } from './pki-fixtures.js';

/** The same key re-encoded by node:crypto in another PEM container. */
function reencode(file: string, type: 'pkcs1' | 'sec1'): string {
  return createPrivateKey(pki(file)).export({ format: 'pem', type }).toString();
}

function pemBlock(label: string, der: Buffer): string {
  return `-----BEGIN ${label}-----\n${der.toString('base64')}\n-----END ${label}-----\n`;
}

function derSequence(contents: Buffer): Buffer {
  return Buffer.concat([Buffer.of(0x30, 0x82, contents.length >> 8, contents.length & 0xff), contents]);
}

function derOctetString(contents: Buffer): Buffer {
  return Buffer.concat([Buffer.of(0x04, 0x81, contents.length), contents]);
}

describe('parsePrivateKeyPem', () => {
  it.each([
    ['leaf-rsa.key', 'rsa'],
    ['leaf-ecdsa.key', 'ecdsa'],
    ['leaf-ed25519.key', 'ed25519'],
    ['unrelated.key', 'rsa'],
  ])('reads the type of %s', (file, type) => {
    expect(parsePrivateKeyPem(pki(file))).toEqual({ ok: true, value: { type } });
  });

  it('reads PKCS#1 RSA and SEC 1 EC keys, with or without EC PARAMETERS', () => {
    expect(parsePrivateKeyPem(reencode('leaf-rsa.key', 'pkcs1'))).toEqual({
      ok: true,
      value: { type: 'rsa' },
    });
    const sec1 = reencode('leaf-ecdsa.key', 'sec1');
    expect(sec1).toContain('BEGIN EC PRIVATE KEY');
    expect(parsePrivateKeyPem(sec1)).toEqual({ ok: true, value: { type: 'ecdsa' } });
    const withParameters = `-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----\n${sec1}`;
    expect(parsePrivateKeyPem(withParameters)).toEqual({ ok: true, value: { type: 'ecdsa' } });
  });

  const encryptedReason = 'the private key is encrypted: supply it without a passphrase';
  it.each([
    [pki('encrypted.key'), encryptedReason],
    [
      '-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\nAAAA\n-----END RSA PRIVATE KEY-----',
      encryptedReason,
    ],
    [
      '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----',
      'OpenSSH private keys are not supported: convert with "ssh-keygen -p -m PKCS8 -f <file>" or use openssl',
    ],
    [pki('leaf-rsa.crt'), 'expected a PRIVATE KEY block, found CERTIFICATE'],
    [pki('leaf-rsa.key') + pki('unrelated.key'), 'expected one private key, found 2 PEM blocks'],
    [
      '-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----',
      'no private key block found',
    ],
    [
      '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----',
      'the PRIVATE KEY block is not a valid private key',
    ],
    [
      '-----BEGIN EC PARAMETERS-----\nAgEB\n-----END EC PARAMETERS-----\n' +
        reencode('leaf-ecdsa.key', 'sec1'),
      'the EC PARAMETERS block does not hold EC parameters',
    ],
    ['', 'the PEM text is empty'],
    ['hello', 'no PEM block found in "hello"'],
  ])('rejects %j', (pem, reason) => {
    expect(parsePrivateKeyPem(pem)).toEqual({ ok: false, reason });
  });

  const pkcs8 = 'a PKCS#8 private key, which belongs in a PRIVATE KEY block';
  const pkcs1 = 'a PKCS#1 RSA private key, which belongs in an RSA PRIVATE KEY block';
  const sec1 = 'a SEC 1 EC private key, which belongs in an EC PRIVATE KEY block';
  // node:crypto reads several of these as a valid key, differently on each Node line: the label is
  // checked against the DER by acctsync itself.
  it.each([
    ['leaf-rsa.key', 'pkcs8', 'EC PRIVATE KEY', pkcs8],
    ['leaf-rsa.key', 'pkcs8', 'RSA PRIVATE KEY', pkcs8],
    ['leaf-ecdsa.key', 'pkcs8', 'EC PRIVATE KEY', pkcs8],
    ['leaf-ecdsa.key', 'pkcs8', 'RSA PRIVATE KEY', pkcs8],
    ['leaf-ed25519.key', 'pkcs8', 'EC PRIVATE KEY', pkcs8],
    ['leaf-ed25519.key', 'pkcs8', 'RSA PRIVATE KEY', pkcs8],
    ['leaf-rsa.key', 'pkcs1', 'PRIVATE KEY', pkcs1],
    ['leaf-rsa.key', 'pkcs1', 'EC PRIVATE KEY', pkcs1],
    ['leaf-ecdsa.key', 'sec1', 'PRIVATE KEY', sec1],
    ['leaf-ecdsa.key', 'sec1', 'RSA PRIVATE KEY', sec1],
  ] as const)('refuses %s as %s in a %s block', (file, type, label, holds) => {
    const der = createPrivateKey(pki(file)).export({ format: 'der', type });
    expect(parsePrivateKeyPem(pemBlock(label, der))).toEqual({
      ok: false,
      reason: `the ${label} block holds ${holds}`,
    });
  });

  it('refuses a PKCS#8 key whose inner key is not of its algorithm, and trailing bytes', () => {
    const rsa = createPrivateKey(pki('leaf-rsa.key'));
    const ec = createPrivateKey(pki('leaf-ecdsa.key'));
    const rsaPkcs8 = rsa.export({ format: 'der', type: 'pkcs8' });
    const pkcs1 = rsa.export({ format: 'der', type: 'pkcs1' });
    const sec1 = ec.export({ format: 'der', type: 'sec1' });
    // rsaEncryption's AlgorithmIdentifier with a SEC 1 EC key as its privateKey OCTET STRING.
    const algorithm = Buffer.from('300d06092a864886f70d0101010500', 'hex');
    const mixed = derSequence(Buffer.concat([Buffer.of(0x02, 0x01, 0x00), algorithm, derOctetString(sec1)]));
    expect(parsePrivateKeyPem(pemBlock('PRIVATE KEY', mixed))).toEqual({
      ok: false,
      reason: 'the PRIVATE KEY block is not a valid private key',
    });
    for (const [label, der] of [
      ['PRIVATE KEY', rsaPkcs8],
      ['RSA PRIVATE KEY', pkcs1],
      ['EC PRIVATE KEY', sec1],
    ] as const) {
      expect(parsePrivateKeyPem(pemBlock(label, Buffer.concat([der, Buffer.of(0x05, 0x00)])))).toEqual({
        ok: false,
        reason: `the ${label} block is not a valid private key`,
      });
    }
  });

  it('refuses key types the platform does not take', () => {
    const ed448 = generateKeyPairSync('ed448').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(parsePrivateKeyPem(ed448)).toEqual({
      ok: false,
      reason: 'ed448 private keys are not supported (use RSA, ECDSA or Ed25519)',
    });
  });
});

describe('privateKeyMatchesCertificate', () => {
  it.each([
    ['leaf-rsa.key', 'leaf-rsa.crt'],
    ['leaf-ecdsa.key', 'leaf-ecdsa.crt'],
    ['leaf-ed25519.key', 'leaf-ed25519.crt'],
    ['leaf-rsa.key', 'chain-rsa.pem'],
  ])('%s belongs to %s', (key, cert) => {
    expect(privateKeyMatchesCertificate(pki(key), pki(cert))).toBe(true);
  });

  it('matches a PKCS#1 re-encoding of the same key', () => {
    expect(privateKeyMatchesCertificate(reencode('leaf-rsa.key', 'pkcs1'), pki('leaf-rsa.crt'))).toBe(true);
  });

  it.each([
    ['unrelated.key', 'leaf-rsa.crt'],
    ['leaf-rsa.key', 'ca.crt'],
    ['leaf-ecdsa.key', 'leaf-rsa.crt'],
    ['leaf-ed25519.key', 'leaf-ecdsa.crt'],
    ['encrypted.key', 'leaf-ecdsa.crt'],
    ['leaf-rsa.crt', 'leaf-rsa.crt'],
    ['leaf-rsa.key', 'leaf-rsa.key'],
  ])('%s does not belong to %s', (key, cert) => {
    expect(privateKeyMatchesCertificate(pki(key), pki(cert))).toBe(false);
  });

  it('is false for garbage', () => {
    expect(privateKeyMatchesCertificate('', '')).toBe(false);
    expect(privateKeyMatchesCertificate(pki('leaf-rsa.key'), 'garbage')).toBe(false);
  });
});
