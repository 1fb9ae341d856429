import { createHash, generateKeyPairSync } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { parseSshPublicKey } from '../../../src/resources/formats/index.js';
import { fingerprints, pki } from './pki-fixtures.js';
import { rsaPkcs1, rsaSpki } from './ssh-pem-fixtures.js';

/** An RFC 4251 `string`: uint32 length, then the bytes. */
function sshString(content: string | Uint8Array): Buffer {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'latin1') : Buffer.from(content);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function keyLine(type: string, ...fields: (string | Uint8Array)[]): string {
  return `${type} ${Buffer.concat(fields.map(sshString)).toString('base64')}`;
}

const ed25519Key = new Uint8Array(32).fill(7);

const p256Point = Uint8Array.from([0x04, ...new Uint8Array(64).fill(1)]);

describe('parseSshPublicKey', () => {
  const expected = fingerprints('ssh-fingerprints.txt', 3, 1);

  it.each([
    ['PUBLIC KEY (PKCS#8)', rsaSpki],
    ['RSA PUBLIC KEY (PKCS#1)', rsaPkcs1],
  ])('reads a PEM %s as the OpenSSH key it encodes: same fingerprint and identity', (_, pem) => {
    const line = pki('ssh-rsa.pub');
    const result = parseSshPublicKey(pem);
    expect(result).toEqual({
      ok: true,
      value: {
        type: 'ssh-rsa',
        fingerprint: expected.get('(RSA)'),
        comment: '',
        identity: line.trim().split(' ').slice(0, 2).join(' '),
      },
    });
  });

  it('reads PEM Ed25519 and ECDSA public keys as their OpenSSH keys', () => {
    for (const [type, options] of [
      ['ed25519', {}],
      ['ec', { namedCurve: 'P-384' }],
    ] as const) {
      const { publicKey } = generateKeyPairSync(type as 'ec', options as { namedCurve: string });
      const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
      const result = parseSshPublicKey(pem);
      if (!result.ok) throw new Error(result.reason);
      const [sshType, data = ''] = result.value.identity.split(' ');
      expect(sshType).toBe(type === 'ed25519' ? 'ssh-ed25519' : 'ecdsa-sha2-nistp384');
      // The identity is a valid OpenSSH line of the same key.
      expect(parseSshPublicKey(`${result.value.identity} c`)).toMatchObject({ ok: true });
      expect(result.value.fingerprint).toBe(
        `SHA256:${createHash('sha256').update(Buffer.from(data, 'base64')).digest('base64').replace(/=+$/, '')}`,
      );
    }
  });

  it.each([
    ['ssh-ed25519.pub', 'ssh-ed25519'],
    ['ssh-rsa.pub', 'ssh-rsa'],
  ])('parses %s with the fingerprint ssh-keygen prints', (file, type) => {
    const line = pki(file);
    const result = parseSshPublicKey(line);
    const algorithm = type === 'ssh-rsa' ? '(RSA)' : '(ED25519)';
    expect(result).toEqual({
      ok: true,
      value: {
        type,
        fingerprint: expected.get(algorithm),
        comment: 'test@acctsync',
        identity: line.trim().split(' ').slice(0, 2).join(' '),
      },
    });
  });

  it('ignores the comment and surrounding whitespace for identity', () => {
    const [type = '', data = ''] = pki('ssh-ed25519.pub').trim().split(' ');
    const a = parseSshPublicKey(`${type} ${data}`);
    const b = parseSshPublicKey(`\n  ${type}\t${data}   laptop of someone  \r\n`);
    expect(a.ok && b.ok && a.value.identity === b.value.identity).toBe(true);
    expect(b).toMatchObject({ ok: true, value: { comment: 'laptop of someone' } });
    expect(a).toMatchObject({ ok: true, value: { comment: '' } });
  });

  it.each([
    ['ecdsa-sha2-nistp256', keyLine('ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp256', 'nistp256', p256Point)],
    [
      'ecdsa-sha2-nistp384',
      keyLine(
        'ecdsa-sha2-nistp384',
        'ecdsa-sha2-nistp384',
        'nistp384',
        Uint8Array.from([4, ...new Uint8Array(96)]),
      ),
    ],
    [
      'ecdsa-sha2-nistp521',
      keyLine(
        'ecdsa-sha2-nistp521',
        'ecdsa-sha2-nistp521',
        'nistp521',
        Uint8Array.from([4, ...new Uint8Array(132)]),
      ),
    ],
    [
      'sk-ssh-ed25519@openssh.com',
      keyLine('sk-ssh-ed25519@openssh.com', 'sk-ssh-ed25519@openssh.com', ed25519Key, 'ssh:'),
    ],
    [
      'sk-ecdsa-sha2-nistp256@openssh.com',
      keyLine(
        'sk-ecdsa-sha2-nistp256@openssh.com',
        'sk-ecdsa-sha2-nistp256@openssh.com',
        'nistp256',
        p256Point,
        'ssh:',
      ),
    ],
  ])('accepts a well-formed %s key', (type, line) => {
    const blob = Buffer.from(line.split(' ')[1] ?? '', 'base64');
    const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
    expect(parseSshPublicKey(`${line} me@host`)).toEqual({
      ok: true,
      value: { type, fingerprint, comment: 'me@host', identity: line },
    });
  });

  const ed25519 = (key: Uint8Array): string => keyLine('ssh-ed25519', 'ssh-ed25519', key);
  it.each([
    ['', 'expected "<type> <base64 key data> [comment]"'],
    ['ssh-ed25519', 'expected "<type> <base64 key data> [comment]"'],
    [
      'ssh-dss AAAAB3NzaC1kc3M=',
      'key type "ssh-dss" is not supported (use ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com)',
    ],
    [
      'from="10.0.0.1" ssh-ed25519 AAAA',
      'key type "from="10.0.0.1"" is not supported (use ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com)',
    ],
    [
      '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
      'the PUBLIC KEY block is not a valid public key',
    ],
    [
      '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----',
      'a CERTIFICATE block is not a public key (use PUBLIC KEY or RSA PUBLIC KEY)',
    ],
    [`${rsaSpki}${rsaPkcs1}`, 'expected exactly one PEM public key block'],
    [`${ed25519(ed25519Key)}\n${ed25519(ed25519Key)}`, 'expected exactly one public key on one line'],
    ['ssh-ed25519 AAAA!!!!', 'the key data is not valid base64'],
    ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5', 'the key data is not a valid ssh-ed25519 key'],
    ['ssh-ed25519 AAB=', 'the key data is not valid base64'],
    [
      keyLine('ssh-ed25519', 'ssh-rsa', ed25519Key),
      'the key data is for "ssh-rsa" but the line declares "ssh-ed25519"',
    ],
    ['ssh-ed25519 AAAA', 'the key data is for "?" but the line declares "ssh-ed25519"'],
    [ed25519(new Uint8Array(31)), 'the key data is not a valid ssh-ed25519 key'],
    [
      `${keyLine('ssh-ed25519', 'ssh-ed25519', ed25519Key, 'extra')}`,
      'the key data is not a valid ssh-ed25519 key',
    ],
    [keyLine('ssh-rsa', 'ssh-rsa', Uint8Array.of(1, 0, 1)), 'the key data is not a valid ssh-rsa key'],
    [
      keyLine('ssh-rsa', 'ssh-rsa', Uint8Array.of(1, 0, 1), Uint8Array.of(0x80, 1)),
      'the key data is not a valid ssh-rsa key',
    ],
    [
      keyLine('ssh-rsa', 'ssh-rsa', Uint8Array.of(1, 0, 1), Uint8Array.of(0, 0)),
      'the key data is not a valid ssh-rsa key',
    ],
    [
      keyLine('ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp256', 'nistp384', p256Point),
      'the key data is not a valid ecdsa-sha2-nistp256 key',
    ],
    [
      keyLine(
        'ecdsa-sha2-nistp256',
        'ecdsa-sha2-nistp256',
        'nistp256',
        Uint8Array.from([2, ...new Uint8Array(32)]),
      ),
      'the key data is not a valid ecdsa-sha2-nistp256 key',
    ],
    [
      keyLine('sk-ssh-ed25519@openssh.com', 'sk-ssh-ed25519@openssh.com', ed25519Key),
      'the key data is not a valid sk-ssh-ed25519@openssh.com key',
    ],
  ])('rejects %j', (line, reason) => {
    expect(parseSshPublicKey(line)).toEqual({ ok: false, reason });
  });

  it('rejects a blob whose declared string length runs past the end', () => {
    const blob = Buffer.concat([sshString('ssh-ed25519'), Buffer.from([0xff, 0xff, 0xff, 0xff, 1, 2])]);
    expect(parseSshPublicKey(`ssh-ed25519 ${blob.toString('base64')}`)).toEqual({
      ok: false,
      reason: 'the key data is not a valid ssh-ed25519 key',
    });
  });
});
