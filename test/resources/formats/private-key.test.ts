import { createPrivateKey, generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { parsePrivateKeyPem, privateKeyMatchesCertificate } from '../../../src/resources/formats/index.js';
import { pki } from './pki-fixtures.js';

/** The same key re-encoded by node:crypto in another PEM container. */
function reencode(file: string, type: 'pkcs1' | 'sec1'): string {
  return createPrivateKey(pki(file)).export({ format: 'pem', type }).toString();
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
      pki('leaf-rsa.key')
        .replace('PRIVATE KEY', 'EC PRIVATE KEY')
        .replace('END PRIVATE KEY', 'END EC PRIVATE KEY'),
      'the EC PRIVATE KEY block is not a valid private key',
    ],
    ['', 'the PEM text is empty'],
    ['hello', 'no PEM block found in "hello"'],
  ])('rejects %j', (pem, reason) => {
    expect(parsePrivateKeyPem(pem)).toEqual({ ok: false, reason });
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
