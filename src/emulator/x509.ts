/**
 * Issues X.509 certificates the way a public ACME CA would, for the emulator's managed
 * certificates: a DER writer just large enough for a certificate (node:crypto signs but does not
 * build certificates), an emulator CA, and leaf certificates for one DNS name.
 */
import { generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** One tag-length-value element with definite length (X.690 section 8.1). */
function tlv(tag: number, contents: Buffer): Buffer {
  const n = contents.length;
  if (n < 0x80) return Buffer.concat([Buffer.from([tag, n]), contents]);
  const length: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) length.unshift(rest % 256);
  return Buffer.concat([Buffer.from([tag, 0x80 | length.length, ...length]), contents]);
}

const sequence = (...parts: Buffer[]): Buffer => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]): Buffer => tlv(0x31, Buffer.concat(parts));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);
const utf8 = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
const octetString = (inner: Buffer): Buffer => tlv(0x04, inner);
const bitString = (bytes: Buffer, unusedBits = 0): Buffer =>
  tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
const TRUE = tlv(0x01, Buffer.from([0xff]));

/** A non-negative INTEGER from big-endian bytes. */
function integer(bytes: Buffer): Buffer {
  const first = bytes[0] ?? 0;
  return tlv(0x02, (first & 0x80) === 0 ? bytes : Buffer.concat([Buffer.from([0]), bytes]));
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const arc of rest) {
    const digits = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) digits.unshift(0x80 | (v & 0x7f));
    bytes.push(...digits);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** GeneralizedTime is required from 2050 on (RFC 5280 section 4.1.2.5); UTCTime before. */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`, 'latin1'))
    : tlv(0x18, Buffer.from(`${iso}Z`, 'latin1'));
}

const commonName = (cn: string): Buffer => sequence(set(sequence(oid('2.5.4.3'), utf8(cn))));
const extension = (id: string, critical: boolean, value: Buffer): Buffer =>
  sequence(oid(id), ...(critical ? [TRUE] : []), octetString(value));
const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const DAY_MS = 24 * 60 * 60 * 1000;

function pem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

interface Signed {
  readonly subject: string;
  readonly publicKey: KeyObject;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly extensions: readonly Buffer[];
}

/**
 * A positive 16-byte serial number (RFC 5280 section 4.1.2.2) from random bytes. The first byte is
 * kept in 0x01..0x7f: a high bit would make the INTEGER negative, and a zero byte would need no
 * encoding, so DER's minimal-encoding rule would be broken; strict parsers (Node 26's OpenSSL)
 * refuse such a certificate, which made about one issued certificate in 256 unreadable.
 */
export function serialNumber(random: Buffer = randomBytes(16)): Buffer {
  const serial = Buffer.from(random);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/** A certificate signed with ECDSA P-256 / SHA-256 by `issuer` (named `issuerName`). */
function signCertificate(cert: Signed, issuerName: string, issuerKey: KeyObject): string {
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serialNumber()),
    ECDSA_WITH_SHA256,
    commonName(issuerName),
    sequence(time(cert.notBefore), time(cert.notAfter)),
    commonName(cert.subject),
    cert.publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(...cert.extensions)),
  );
  const signature = sign('sha256', tbs, issuerKey);
  return pem(sequence(tbs, ECDSA_WITH_SHA256, bitString(signature)));
}

/** An issued leaf: its chain (leaf, then the CA) and its private key, PEM. */
interface IssuedCertificate {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  readonly notAfter: Date;
}

/** The emulator's certificate authority: a fresh P-256 key and self-signed certificate per start. */
export class EmulatorCa {
  static readonly NAME = 'acctsync emulator CA';
  readonly #key: KeyObject;
  readonly certificatePem: string;

  private constructor(key: KeyObject, certificatePem: string) {
    this.#key = key;
    this.certificatePem = certificatePem;
  }

  static async create(now: Date): Promise<EmulatorCa> {
    const { publicKey, privateKey } = await generate('ec', { namedCurve: 'P-256' });
    const certificatePem = signCertificate(
      {
        subject: EmulatorCa.NAME,
        publicKey,
        notBefore: now,
        notAfter: new Date(now.getTime() + 3650 * DAY_MS),
        extensions: [
          extension('2.5.29.19', true, sequence(TRUE)),
          // keyCertSign and cRLSign.
          extension('2.5.29.15', true, bitString(Buffer.from([0x06]), 1)),
        ],
      },
      EmulatorCa.NAME,
      privateKey,
    );
    return new EmulatorCa(privateKey, certificatePem);
  }

  /** A 90-day server certificate for `domain` (SAN and CN), with a new key of `keyType`. */
  async issue(domain: string, keyType: 'rsa' | 'ecdsa', now: Date): Promise<IssuedCertificate> {
    const { publicKey, privateKey } =
      keyType === 'rsa'
        ? await generate('rsa', { modulusLength: 2048 })
        : await generate('ec', { namedCurve: 'P-256' });
    const notAfter = new Date(now.getTime() + 90 * DAY_MS);
    const leaf = signCertificate(
      {
        subject: domain,
        publicKey,
        notBefore: now,
        notAfter,
        extensions: [
          extension('2.5.29.19', true, sequence()),
          // digitalSignature and keyEncipherment.
          extension('2.5.29.15', true, bitString(Buffer.from([0xa0]), 5)),
          extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))),
          // dNSName is [2] IMPLICIT IA5String.
          extension('2.5.29.17', false, sequence(tlv(0x82, Buffer.from(domain, 'latin1')))),
        ],
      },
      EmulatorCa.NAME,
      this.#key,
    );
    return {
      certificatePem: leaf + this.certificatePem,
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      notAfter,
    };
  }
}
