import { decodeOid, DerTag, readDerChildren, readDerElement } from './der.js';
import { formatIpAddress } from './ip-address.js';

/**
 * The parts of X.509 extensions that node:crypto's X509Certificate does not expose (key usage) or
 * exposes only as display text with its own quoting (subject alternative names), read from DER.
 */

/** Extension OIDs (RFC 5280 section 4.2.1). */
const KEY_USAGE_OID = '2.5.29.15';
const SUBJECT_ALT_NAME_OID = '2.5.29.17';

/** Key usage names in bit order (RFC 5280 `KeyUsage`), spelled as the platform reports them. */
const KEY_USAGE_BITS = [
  'digital_signature',
  'content_commitment',
  'key_encipherment',
  'data_encipherment',
  'key_agreement',
  'cert_sign',
  'crl_sign',
  'encipher_only',
  'decipher_only',
] as const;

/** A name from {@link KEY_USAGE_BITS}. */
export type KeyUsage = (typeof KEY_USAGE_BITS)[number];

/** `GeneralName` tags (context-specific, primitive) of the two kinds the platform reports. */
const DNS_NAME_TAG = 0x82;
const IP_ADDRESS_TAG = 0x87;

/** Key usages and subject alternative names of one certificate. */
interface CertificateExtensions {
  readonly keyUsages: KeyUsage[];
  readonly dnsNames: string[];
  readonly ips: string[];
}

/** Reads the extensions of a DER certificate, or undefined when its structure is malformed. */
export function readCertificateExtensions(der: Uint8Array): CertificateExtensions | undefined {
  const extensions = extensionValues(der);
  if (extensions === undefined) return undefined;
  const keyUsage = extensions.get(KEY_USAGE_OID);
  const altNames = extensions.get(SUBJECT_ALT_NAME_OID);
  const keyUsages = keyUsage === undefined ? [] : decodeKeyUsage(keyUsage);
  const names = altNames === undefined ? { dnsNames: [], ips: [] } : decodeSubjectAltNames(altNames);
  if (keyUsages === undefined || names === undefined) return undefined;
  return { keyUsages, ...names };
}

/**
 * Maps each extension OID to its `extnValue` contents. Certificate ::= SEQUENCE { tbsCertificate
 * SEQUENCE { ..., [3] EXPLICIT SEQUENCE OF Extension }, ... }; Extension ::= SEQUENCE { extnID OID,
 * critical BOOLEAN DEFAULT FALSE, extnValue OCTET STRING }.
 */
function extensionValues(der: Uint8Array): Map<string, Uint8Array> | undefined {
  const certificate = readDerElement(der);
  if (certificate?.tag !== DerTag.sequence || certificate.end !== der.length) return undefined;
  const tbs = readDerElement(certificate.contents);
  if (tbs?.tag !== DerTag.sequence) return undefined;
  const tbsFields = readDerChildren(tbs.contents);
  if (tbsFields === undefined) return undefined;

  const values = new Map<string, Uint8Array>();
  const EXTENSIONS_TAG = 0xa3; // [3], context-specific, constructed
  const wrapper = tbsFields.find((field) => field.tag === EXTENSIONS_TAG);
  if (wrapper === undefined) return values; // v1 certificates have no extensions
  const list = readDerElement(wrapper.contents);
  const extensions = list?.tag === DerTag.sequence ? readDerChildren(list.contents) : undefined;
  if (extensions === undefined) return undefined;

  for (const extension of extensions) {
    const parts = extension.tag === DerTag.sequence ? readDerChildren(extension.contents) : undefined;
    const id = parts?.[0];
    const value = parts?.at(-1);
    if (id?.tag !== DerTag.objectIdentifier || value?.tag !== DerTag.octetString) return undefined;
    const oid = decodeOid(id.contents);
    if (oid === undefined) return undefined;
    values.set(oid, value.contents);
  }
  return values;
}

/** KeyUsage ::= BIT STRING; the first content octet counts the unused bits at the end. */
function decodeKeyUsage(extnValue: Uint8Array): KeyUsage[] | undefined {
  const bits = readDerElement(extnValue);
  if (bits?.tag !== DerTag.bitString || bits.end !== extnValue.length) return undefined;
  const unusedBits = bits.contents[0];
  if (unusedBits === undefined || unusedBits > 7) return undefined;
  const data = bits.contents.subarray(1);
  return KEY_USAGE_BITS.filter((_, bit) => (((data[bit >> 3] ?? 0) << (bit & 7)) & 0x80) !== 0);
}

/** GeneralNames ::= SEQUENCE OF GeneralName; only dNSName and iPAddress are kept. */
function decodeSubjectAltNames(extnValue: Uint8Array): { dnsNames: string[]; ips: string[] } | undefined {
  const list = readDerElement(extnValue);
  const names = list?.tag === DerTag.sequence ? readDerChildren(list.contents) : undefined;
  if (names === undefined) return undefined;
  const dnsNames: string[] = [];
  const ips: string[] = [];
  for (const name of names) {
    if (name.tag === DNS_NAME_TAG) dnsNames.push(Buffer.from(name.contents).toString('latin1'));
    if (name.tag === IP_ADDRESS_TAG) {
      const ip = formatIpAddress(name.contents);
      if (ip === undefined) return undefined;
      ips.push(ip);
    }
  }
  return { dnsNames, ips };
}
