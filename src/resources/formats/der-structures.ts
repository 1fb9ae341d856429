import { decodeOid, DerTag, readDerChildren, readDerElement, type DerElement } from './der.js';

/**
 * Which ASN.1 structure a PEM block's DER holds, decided by our own reading of the bytes. OpenSSL's
 * DER decoders ignore the container they are told to expect when another one parses (Node 20 reads
 * a PKCS#8 key handed over as PKCS#1, later lines read any key as any other), so the label must be
 * checked against the contents here for acctsync to refuse the same files on every Node line.
 */

/** The three unencrypted private key containers a PEM label names. */
export type PrivateKeyStructure = 'pkcs8' | 'pkcs1' | 'sec1';

/** PKCS#8 algorithm OIDs whose inner key acctsync checks; others go to node:crypto as they are. */
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const ED25519 = '1.3.101.112';
const ED25519_KEY_LENGTH = 32;

/** Context-specific tags of the optional trailing fields. */
const CONTEXT_0_CONSTRUCTED = 0xa0;
const CONTEXT_1_CONSTRUCTED = 0xa1;
const CONTEXT_1_PRIMITIVE = 0x81;
const NULL_TAG = 0x05;

/** The private key container `der` is, or undefined when it is none of the three. */
export function privateKeyStructureOf(der: Uint8Array): PrivateKeyStructure | undefined {
  if (isPkcs8PrivateKey(der)) return 'pkcs8';
  if (isPkcs1RsaPrivateKey(der)) return 'pkcs1';
  if (isSec1EcPrivateKey(der)) return 'sec1';
  return undefined;
}

/** An `EC PARAMETERS` block: ECParameters ::= CHOICE { namedCurve OID, implicitCA NULL, specifiedCurve SEQUENCE }. */
export function isEcParameters(der: Uint8Array): boolean {
  const tag = whole(der)?.tag;
  return tag === DerTag.objectIdentifier || tag === NULL_TAG || tag === DerTag.sequence;
}

/** Certificate ::= SEQUENCE { tbsCertificate SEQUENCE, signatureAlgorithm SEQUENCE, signature BIT STRING } (RFC 5280). */
export function isX509Certificate(der: Uint8Array): boolean {
  const fields = sequenceFields(der);
  return tagsAre(fields, [DerTag.sequence, DerTag.sequence, DerTag.bitString]);
}

/**
 * OneAsymmetricKey (RFC 5958, PKCS#8 v1 and v2): SEQUENCE { version 0|1, AlgorithmIdentifier,
 * privateKey OCTET STRING, [0] attributes OPTIONAL, [1] publicKey OPTIONAL (v2 only) }. The inner
 * key of the algorithms the platform takes must be that algorithm's own structure.
 */
function isPkcs8PrivateKey(der: Uint8Array): boolean {
  const fields = sequenceFields(der);
  const [version, algorithm, privateKey, ...optional] = fields ?? [];
  if (!isSmallInteger(version, [0, 1]) || algorithm?.tag !== DerTag.sequence) return false;
  if (privateKey?.tag !== DerTag.octetString) return false;
  const trailing =
    version?.contents[0] === 1 ? [CONTEXT_0_CONSTRUCTED, CONTEXT_1_PRIMITIVE] : [CONTEXT_0_CONSTRUCTED];
  if (!isOrderedSubset(optional, trailing)) return false;

  const oidElement = readDerChildren(algorithm.contents)?.[0];
  if (oidElement?.tag !== DerTag.objectIdentifier) return false;
  const inner = privateKey.contents;
  switch (decodeOid(oidElement.contents)) {
    case RSA_ENCRYPTION:
      return isPkcs1RsaPrivateKey(inner);
    case EC_PUBLIC_KEY:
      return isSec1EcPrivateKey(inner);
    case ED25519: {
      const key = whole(inner);
      return key?.tag === DerTag.octetString && key.contents.length === ED25519_KEY_LENGTH;
    }
    default:
      return true;
  }
}

/**
 * RSAPrivateKey (RFC 8017 A.1.2): SEQUENCE { version 0|1, eight INTEGERs (modulus ... coefficient),
 * otherPrimeInfos SEQUENCE, present exactly when the version is 1 (multi-prime) }.
 */
function isPkcs1RsaPrivateKey(der: Uint8Array): boolean {
  const fields = sequenceFields(der);
  const [version, ...rest] = fields ?? [];
  if (!isSmallInteger(version, [0, 1])) return false;
  const integers = rest.slice(0, 8);
  const otherPrimes = rest.slice(8);
  if (integers.length !== 8 || !integers.every((field) => isInteger(field))) return false;
  return version?.contents[0] === 1 ? tagsAre(otherPrimes, [DerTag.sequence]) : otherPrimes.length === 0;
}

/**
 * ECPrivateKey (RFC 5915): SEQUENCE { version 1, privateKey OCTET STRING, [0] parameters OPTIONAL,
 * [1] publicKey OPTIONAL }.
 */
function isSec1EcPrivateKey(der: Uint8Array): boolean {
  const [version, privateKey, ...optional] = sequenceFields(der) ?? [];
  return (
    isSmallInteger(version, [1]) &&
    privateKey?.tag === DerTag.octetString &&
    isOrderedSubset(optional, [CONTEXT_0_CONSTRUCTED, CONTEXT_1_CONSTRUCTED])
  );
}

/** The one element `der` consists of, or undefined when it is malformed or followed by more bytes. */
function whole(der: Uint8Array): DerElement | undefined {
  const element = readDerElement(der);
  return element?.end === der.length ? element : undefined;
}

/** The fields of the SEQUENCE that `der` consists of exactly. */
function sequenceFields(der: Uint8Array): DerElement[] | undefined {
  const sequence = whole(der);
  return sequence?.tag === DerTag.sequence ? readDerChildren(sequence.contents) : undefined;
}

function tagsAre(elements: readonly DerElement[] | undefined, tags: readonly number[]): boolean {
  return elements?.length === tags.length && elements.every((element, i) => element.tag === tags[i]);
}

/** True when the tags of `elements` are some of `allowed`, each at most once, in that order. */
function isOrderedSubset(elements: readonly DerElement[], allowed: readonly number[]): boolean {
  let next = 0;
  for (const element of elements) {
    const at = allowed.indexOf(element.tag, next);
    if (at === -1) return false;
    next = at + 1;
  }
  return true;
}

function isInteger(element: DerElement | undefined): boolean {
  return element?.tag === DerTag.integer && element.contents.length > 0;
}

/** A one-octet INTEGER among `values` (the version fields). */
function isSmallInteger(element: DerElement | undefined, values: readonly number[]): boolean {
  const value = element?.contents[0];
  return (
    isInteger(element) && element?.contents.length === 1 && value !== undefined && values.includes(value)
  );
}
