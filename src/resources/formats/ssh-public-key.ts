import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';

import { decodeStrictBase64 } from './base64.js';
import { readPemBlocks } from './pem.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

/** A parsed public key: an OpenSSH line or a PEM block. */
export interface SshPublicKey {
  /** Key type as declared, e.g. `ssh-ed25519`. */
  readonly type: string;
  /** `SHA256:<unpadded base64>`, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  /** Text after the key data, `""` when absent (always for PEM). */
  readonly comment: string;
  /**
   * `<type> <base64>` of the OpenSSH form: two keys with the same identity are the same key, whatever
   * their comments or encoding (the platform refuses to register one key twice).
   */
  readonly identity: string;
}

/** Curve name inside an ECDSA key blob, and the length of an uncompressed point on it. */
const ECDSA_CURVES = {
  nistp256: 65,
  nistp384: 97,
  nistp521: 133,
} as const satisfies Record<string, number>;

type BlobCheck = (blob: SshBlobReader) => boolean;

const ED25519_KEY_LENGTH = 32;
const ed25519: BlobCheck = (blob) => blob.readString()?.length === ED25519_KEY_LENGTH;
const ecdsa =
  (curve: keyof typeof ECDSA_CURVES): BlobCheck =>
  (blob) => {
    if (blob.readText() !== curve) return false;
    const point = blob.readString();
    // 0x04: an uncompressed point, the only form OpenSSH writes.
    return point?.length === ECDSA_CURVES[curve] && point[0] === 0x04;
  };
const rsa: BlobCheck = (blob) => {
  const exponent = blob.readString();
  const modulus = blob.readString();
  return isPositiveMpint(exponent) && isPositiveMpint(modulus);
};
/** Security-key (FIDO) variants append the relying party's application string. */
const withApplication =
  (check: BlobCheck): BlobCheck =>
  (blob) =>
    check(blob) && blob.readString() !== undefined;

/** What follows the type string in each supported key blob (RFC 4253, RFC 5656, RFC 8709, PROTOCOL.u2f). */
const BLOB_CHECKS: Readonly<Record<string, BlobCheck>> = {
  'ssh-ed25519': ed25519,
  'ssh-rsa': rsa,
  'ecdsa-sha2-nistp256': ecdsa('nistp256'),
  'ecdsa-sha2-nistp384': ecdsa('nistp384'),
  'ecdsa-sha2-nistp521': ecdsa('nistp521'),
  'sk-ssh-ed25519@openssh.com': withApplication(ed25519),
  'sk-ecdsa-sha2-nistp256@openssh.com': withApplication(ecdsa('nistp256')),
};

/**
 * Parses one public key: an OpenSSH line, `<type> <base64> [comment]` (the content of an `id_*.pub`
 * file), or one PEM block (`PUBLIC KEY`, PKCS#8 SPKI; `RSA PUBLIC KEY`, PKCS#1), which is read as
 * the OpenSSH key it encodes. Checks the base64, that the key data declares the same type as the line, and that the key
 * data has the structure of that type. Surrounding whitespace (a trailing newline) is ignored.
 */
export function parseSshPublicKey(s: string): Result<SshPublicKey> {
  const line = s.trim();
  if (line.startsWith('-----BEGIN')) return parsePemPublicKey(line);
  if (/[\r\n]/.test(line)) return fail('expected exactly one public key on one line');
  const match = /^(\S+)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
  if (match === null) return fail('expected "<type> <base64 key data> [comment]"');
  const [, type = '', data = '', comment = ''] = match;

  const check = BLOB_CHECKS[type];
  if (check === undefined) {
    return fail(`key type "${preview(type)}" is not supported (use ${Object.keys(BLOB_CHECKS).join(', ')})`);
  }
  const blob = decodeStrictBase64(data);
  if (blob === undefined) return fail('the key data is not valid base64');
  const reader = new SshBlobReader(blob);
  const embeddedType = reader.readText();
  if (embeddedType !== type) {
    return fail(`the key data is for "${preview(embeddedType ?? '?')}" but the line declares "${type}"`);
  }
  if (!check(reader) || !reader.atEnd()) return fail(`the key data is not a valid ${type} key`);

  return ok(described(type, blob, comment));
}

function described(type: string, blob: Buffer, comment: string): SshPublicKey {
  const digest = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  return { type, fingerprint: `SHA256:${digest}`, comment, identity: `${type} ${blob.toString('base64')}` };
}

/** DER encodings of public keys, by PEM label. */
const PEM_PUBLIC_KEY_TYPES: Readonly<Record<string, 'spki' | 'pkcs1'>> = {
  'PUBLIC KEY': 'spki',
  'RSA PUBLIC KEY': 'pkcs1',
};

/** OpenSSH curve names of the JWK curves. */
const JWK_CURVES: Readonly<Record<string, keyof typeof ECDSA_CURVES>> = {
  'P-256': 'nistp256',
  'P-384': 'nistp384',
  'P-521': 'nistp521',
};

function parsePemPublicKey(text: string): Result<SshPublicKey> {
  const blocks = readPemBlocks(text);
  if (!blocks.ok) return blocks;
  const [block, extra] = blocks.value;
  if (block === undefined || extra !== undefined) return fail('expected exactly one PEM public key block');
  const type = PEM_PUBLIC_KEY_TYPES[block.label];
  if (type === undefined) {
    return fail(`a ${preview(block.label)} block is not a public key (use PUBLIC KEY or RSA PUBLIC KEY)`);
  }
  let jwk: JsonWebKey;
  try {
    jwk = createPublicKey({ key: block.der, format: 'der', type }).export({ format: 'jwk' });
  } catch {
    return fail(`the ${block.label} block is not a valid public key`);
  }
  const blob = sshBlobOfJwk(jwk);
  if (blob === undefined)
    return fail('the PEM public key is not an RSA, ECDSA (P-256/384/521) or Ed25519 key');
  return ok(described(blob.type, blob.bytes, ''));
}

/** The OpenSSH key blob (RFC 4253, RFC 5656, RFC 8709) of a public key. */
function sshBlobOfJwk(jwk: JsonWebKey): { type: string; bytes: Buffer } | undefined {
  const b64 = (v: string | undefined): Buffer => Buffer.from(v ?? '', 'base64url');
  if (jwk.kty === 'RSA') {
    return sshBlob('ssh-rsa', [mpint(b64(jwk.e)), mpint(b64(jwk.n))]);
  }
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return sshBlob('ssh-ed25519', [b64(jwk.x)]);
  const curve = jwk.kty === 'EC' ? JWK_CURVES[jwk.crv ?? ''] : undefined;
  if (curve === undefined) return undefined;
  const point = Buffer.concat([Buffer.from([0x04]), b64(jwk.x), b64(jwk.y)]);
  return sshBlob(`ecdsa-sha2-${curve}`, [Buffer.from(curve, 'latin1'), point]);
}

function sshBlob(type: string, parts: readonly Buffer[]): { type: string; bytes: Buffer } {
  const strings = [Buffer.from(type, 'latin1'), ...parts].map((part) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(part.length);
    return Buffer.concat([length, part]);
  });
  return { type, bytes: Buffer.concat(strings) };
}

/** An unsigned big-endian integer as an SSH `mpint`: no leading zeros, one added when the top bit is set. */
function mpint(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const trimmed = bytes.subarray(start);
  return ((trimmed[0] ?? 0) & 0x80) === 0 ? trimmed : Buffer.concat([Buffer.from([0]), trimmed]);
}

/** An SSH `mpint` that is present, non-empty and positive (RFC 4251 section 5: the sign is the top bit). */
function isPositiveMpint(bytes: Uint8Array | undefined): boolean {
  return (
    bytes !== undefined && bytes.length > 0 && ((bytes[0] ?? 0) & 0x80) === 0 && bytes.some((b) => b !== 0)
  );
}

/** Reads RFC 4251 `string`s (a uint32 big-endian length, then that many bytes) from a key blob. */
class SshBlobReader {
  readonly #bytes: Buffer;
  #offset = 0;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  /** The next string's bytes, or undefined when the blob ends too early. */
  readString(): Buffer | undefined {
    if (this.#offset + 4 > this.#bytes.length) return undefined;
    const length = this.#bytes.readUInt32BE(this.#offset);
    const start = this.#offset + 4;
    if (length > this.#bytes.length - start) return undefined;
    this.#offset = start + length;
    return this.#bytes.subarray(start, start + length);
  }

  /** The next string decoded as ASCII text. */
  readText(): string | undefined {
    return this.readString()?.toString('latin1');
  }

  atEnd(): boolean {
    return this.#offset === this.#bytes.length;
  }
}
