import { X509Certificate } from 'node:crypto';

import { isX509Certificate } from './der-structures.js';
import { readCertificateExtensions, type KeyUsage } from './certificate-extensions.js';
import { keyTypeOf, type KeyType } from './key-type.js';
import { readPemBlocks } from './pem.js';
import { fail, ok, type Result } from './result.js';

/** The fields the platform reports for a certificate (TLS certificate and certificate authority). */
export interface ParsedCertificate {
  readonly subjectCommonName: string;
  readonly subjectAlternativeNames: { readonly dnsNames: string[]; readonly ips: string[] };
  /** RFC 3339 in UTC, e.g. `2026-01-01T00:00:00Z`. */
  readonly notBefore: string;
  /** RFC 3339 in UTC. */
  readonly notAfter: string;
  /** In RFC 5280 bit order. */
  readonly keyUsages: KeyUsage[];
  /** Known purposes by name (`server_auth`), others as their dotted OID, in certificate order. */
  readonly extendedKeyUsages: string[];
  /**
   * The integer in lower-case hex without leading zeros (`ff01`, `0` for zero). OpenSSL and Node pad
   * to whole DER bytes (`00FF01`), which would make one serial compare unequal to itself.
   */
  readonly serialNumber: string;
  readonly issuerCommonName: string;
  /** Subject attributes are `""` when absent; when repeated, the first one is reported. */
  readonly subjectOrganization: string;
  readonly subjectOrganizationalUnit: string;
  readonly subjectLocality: string;
  readonly subjectProvince: string;
  readonly subjectCountry: string;
  readonly publicKeyType: KeyType;
  /** basicConstraints CA:TRUE. */
  readonly isCA: boolean;
  /** SHA-256 of the DER, colon-separated upper-case hex, as `openssl x509 -fingerprint -sha256` prints it. */
  readonly fingerprintSha256: string;
}

/** Extended key usage names (RFC 5280 section 4.2.1.12), spelled as the platform reports them. */
const EXTENDED_KEY_USAGES: Readonly<Record<string, string>> = {
  '2.5.29.37.0': 'any',
  '1.3.6.1.5.5.7.3.1': 'server_auth',
  '1.3.6.1.5.5.7.3.2': 'client_auth',
  '1.3.6.1.5.5.7.3.3': 'code_signing',
  '1.3.6.1.5.5.7.3.4': 'email_protection',
  '1.3.6.1.5.5.7.3.8': 'time_stamping',
  '1.3.6.1.5.5.7.3.9': 'ocsp_signing',
};

/**
 * Parses a PEM chain (`certificate_pem`, `ca_pem`): every CERTIFICATE block, in order, so the leaf
 * is first when the chain is written leaf first as the spec asks. Fails when there is no
 * certificate, when another kind of block is present (a private key pasted into the chain), or when
 * a block is not a certificate node:crypto and the platform can use.
 */
export function parsePemCertificates(pem: string): Result<ParsedCertificate[]> {
  const certificates = readX509Certificates(pem);
  if (!certificates.ok) return certificates;
  const parsed: ParsedCertificate[] = [];
  for (const [i, certificate] of certificates.value.entries()) {
    const fields = describeCertificate(certificate);
    if (!fields.ok) return fail(`certificate ${i + 1}: ${fields.reason}`);
    parsed.push(fields.value);
  }
  return ok(parsed);
}

/** The node:crypto certificates of every CERTIFICATE block of `pem`, in order; see {@link parsePemCertificates}. */
export function readX509Certificates(pem: string): Result<X509Certificate[]> {
  const blocks = readPemBlocks(pem);
  if (!blocks.ok) return blocks;
  const certificates: X509Certificate[] = [];
  for (const [i, block] of blocks.value.entries()) {
    if (block.label !== 'CERTIFICATE') {
      return fail(`block ${i + 1} is a ${block.label}, but only CERTIFICATE blocks are allowed here`);
    }
    // node:crypto would read a certificate followed by stray bytes; our DER reading refuses it.
    if (!isX509Certificate(block.der)) return fail(`certificate ${i + 1} is not a valid X.509 certificate`);
    try {
      certificates.push(new X509Certificate(block.der));
    } catch {
      return fail(`certificate ${i + 1} is not a valid X.509 certificate`);
    }
  }
  return ok(certificates);
}

function describeCertificate(certificate: X509Certificate): Result<ParsedCertificate> {
  const extensions = readCertificateExtensions(certificate.raw);
  if (extensions === undefined) return fail('its extensions are malformed');
  // node:crypto throws for key algorithms and names that OpenSSL cannot decode.
  const publicKey = readOrUndefined(() => certificate.publicKey);
  const names = readOrUndefined(() => certificate.toLegacyObject());
  if (publicKey === undefined || names === undefined) return fail('its public key or names cannot be read');
  const publicKeyType = keyTypeOf(publicKey);
  if (publicKeyType === undefined) {
    return fail(
      `its ${publicKey.asymmetricKeyType ?? 'unknown'} key is not supported (use RSA, ECDSA or Ed25519)`,
    );
  }
  const notBefore = toRfc3339(certificate.validFrom);
  const notAfter = toRfc3339(certificate.validTo);
  if (notBefore === undefined || notAfter === undefined) return fail('its validity dates are unreadable');

  // The legacy object holds each name attribute decoded to plain UTF-8; the `subject` string is
  // display text with RFC 2253 escapes.
  const { subject, issuer } = names;
  return ok({
    subjectCommonName: firstAttribute(subject, 'CN'),
    subjectAlternativeNames: { dnsNames: extensions.dnsNames, ips: extensions.ips },
    notBefore,
    notAfter,
    keyUsages: extensions.keyUsages,
    extendedKeyUsages: (certificate.keyUsage ?? []).map((oid) => EXTENDED_KEY_USAGES[oid] ?? oid),
    serialNumber: certificate.serialNumber.toLowerCase().replace(/^0+(?=.)/, ''),
    issuerCommonName: firstAttribute(issuer, 'CN'),
    subjectOrganization: firstAttribute(subject, 'O'),
    subjectOrganizationalUnit: firstAttribute(subject, 'OU'),
    subjectLocality: firstAttribute(subject, 'L'),
    subjectProvince: firstAttribute(subject, 'ST'),
    subjectCountry: firstAttribute(subject, 'C'),
    publicKeyType,
    isCA: certificate.ca,
    fingerprintSha256: certificate.fingerprint256,
  });
}

function readOrUndefined<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** A name attribute of a legacy certificate object: a string, or an array when repeated. */
function firstAttribute(name: Record<string, unknown> | undefined, key: string): string {
  const value = name?.[key];
  const first: unknown = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : '';
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * OpenSSL's display form of a certificate time (`Jan  1 00:00:00 2026 GMT`; Node 20 has no Date
 * accessor) as RFC 3339 UTC. X.509 times are whole seconds in UTC (RFC 5280 4.1.2.5), so any
 * fraction is dropped.
 */
function toRfc3339(openSslTime: string): string | undefined {
  const match = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)? (\d{4}) GMT$/.exec(
    openSslTime,
  );
  if (match === null) return undefined;
  const [, month = '', day = '', hours, minutes, seconds, year] = match;
  const monthNumber = MONTHS.indexOf(month) + 1;
  if (monthNumber === 0) return undefined;
  const pad = (n: number | string): string => String(n).padStart(2, '0');
  return `${year}-${pad(monthNumber)}-${pad(day)}T${hours}:${minutes}:${seconds}Z`;
}
