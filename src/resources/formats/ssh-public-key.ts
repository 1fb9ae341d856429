import { createHash } from 'node:crypto';

import { decodeStrictBase64 } from './base64.js';
import { preview } from './preview.js';
import { fail, ok, type Result } from './result.js';

/** A parsed OpenSSH public key line. */
export interface SshPublicKey {
  /** Key type as declared, e.g. `ssh-ed25519`. */
  readonly type: string;
  /** `SHA256:<unpadded base64>`, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;
  /** Text after the key data, `""` when absent. */
  readonly comment: string;
  /**
   * `<type> <base64>`: two lines with the same identity are the same key, whatever their comments
   * (the platform refuses to register one key twice).
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
 * Parses one OpenSSH public key line, `<type> <base64> [comment]` (the content of an `id_*.pub`
 * file). Checks the base64, that the key data declares the same type as the line, and that the key
 * data has the structure of that type. Surrounding whitespace (a trailing newline) is ignored.
 */
export function parseSshPublicKey(s: string): Result<SshPublicKey> {
  const line = s.trim();
  if (line.startsWith('-----BEGIN')) {
    return fail('expected an OpenSSH public key line (ssh-ed25519 AAAA... comment), not a PEM block');
  }
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

  const digest = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  return ok({ type, fingerprint: `SHA256:${digest}`, comment, identity: `${type} ${data}` });
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
