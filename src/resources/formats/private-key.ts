import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

import { readX509Certificates } from './certificate.js';
import { isEcParameters, privateKeyStructureOf, type PrivateKeyStructure } from './der-structures.js';
import { keyTypeOf, type KeyType } from './key-type.js';
import { readPemBlocks } from './pem.js';
import { fail, ok, type Result } from './result.js';

/** What acctsync learns from a TLS certificate's `private_key_pem`; the key itself stays out of results. */
export interface PrivateKeyInfo {
  readonly type: KeyType;
}

/** The container each unencrypted private key label names (and node:crypto is told to decode). */
const KEY_ENCODINGS = {
  'PRIVATE KEY': 'pkcs8',
  'RSA PRIVATE KEY': 'pkcs1',
  'EC PRIVATE KEY': 'sec1',
} as const satisfies Record<string, PrivateKeyStructure>;

type KeyLabel = keyof typeof KEY_ENCODINGS;

/** Each container by name and the label it belongs under, for the error that says how to fix a label. */
const STRUCTURE_NAMES: Readonly<Record<PrivateKeyStructure, string>> = {
  pkcs8: 'a PKCS#8 private key, which belongs in a PRIVATE KEY block',
  pkcs1: 'a PKCS#1 RSA private key, which belongs in an RSA PRIVATE KEY block',
  sec1: 'a SEC 1 EC private key, which belongs in an EC PRIVATE KEY block',
};

const ENCRYPTED_KEY_REASON = 'the private key is encrypted: supply it without a passphrase';

/** Why common but unusable blocks are refused, with the way out. */
const REFUSED_LABELS: Readonly<Record<string, string>> = {
  'ENCRYPTED PRIVATE KEY': ENCRYPTED_KEY_REASON,
  'OPENSSH PRIVATE KEY':
    'OpenSSH private keys are not supported: convert with "ssh-keygen -p -m PKCS8 -f <file>" or use openssl',
};

/**
 * Parses an unencrypted private key in PEM (PKCS#8 `PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY` or SEC 1
 * `EC PRIVATE KEY`, optionally preceded by `EC PARAMETERS` as `openssl ecparam -genkey` writes it)
 * and reports its type. Encrypted keys are refused: the platform takes the key as is.
 */
export function parsePrivateKeyPem(pem: string): Result<PrivateKeyInfo> {
  const key = readPrivateKey(pem);
  if (!key.ok) return key;
  const type = keyTypeOf(key.value);
  if (type === undefined) {
    return fail(
      `${key.value.asymmetricKeyType ?? 'unknown'} private keys are not supported (use RSA, ECDSA or Ed25519)`,
    );
  }
  return ok({ type });
}

/**
 * True when `keyPem` is the private key of the first (leaf) certificate in `certPem`: the public key
 * derived from the private key equals the certificate's, compared as DER SubjectPublicKeyInfo.
 * False, not an error, when either input cannot be parsed: callers report those with the parsers.
 */
export function privateKeyMatchesCertificate(keyPem: string, certPem: string): boolean {
  const key = readPrivateKey(keyPem);
  const leaf = readX509Certificates(certPem);
  if (!key.ok || !leaf.ok || leaf.value[0] === undefined) return false;
  try {
    const fromKey = createPublicKey(key.value).export({ type: 'spki', format: 'der' });
    const fromCertificate = leaf.value[0].publicKey.export({ type: 'spki', format: 'der' });
    return fromKey.equals(fromCertificate);
  } catch {
    return false; // a certificate key node:crypto cannot export cannot be this private key's
  }
}

function readPrivateKey(pem: string): Result<KeyObject> {
  const blocks = readPemBlocks(pem);
  if (!blocks.ok) return blocks;
  const parameters = blocks.value.filter((block) => block.label === 'EC PARAMETERS');
  if (parameters.some((block) => !isEcParameters(block.der))) {
    return fail('the EC PARAMETERS block does not hold EC parameters');
  }
  const keyBlocks = blocks.value.filter((block) => block.label !== 'EC PARAMETERS');
  const [block] = keyBlocks;
  if (block === undefined) return fail('no private key block found');
  if (keyBlocks.length > 1) return fail(`expected one private key, found ${keyBlocks.length} PEM blocks`);

  const refusal = REFUSED_LABELS[block.label];
  if (refusal !== undefined) return fail(refusal);
  // Legacy OpenSSL encryption keeps the label and marks the block with RFC 1421 headers instead.
  const legacyEncrypted = block.headers.some((header) => /^Proc-Type:.*ENCRYPTED/i.test(header));
  if (legacyEncrypted) return fail(ENCRYPTED_KEY_REASON);
  if (!isKeyLabel(block.label)) return fail(`expected a PRIVATE KEY block, found ${block.label}`);

  const structure = privateKeyStructureOf(block.der);
  if (structure === undefined) return fail(`the ${block.label} block is not a valid private key`);
  if (structure !== KEY_ENCODINGS[block.label]) {
    return fail(`the ${block.label} block holds ${STRUCTURE_NAMES[structure]}`);
  }
  try {
    // DER with an explicit encoding: node:crypto never sees PEM, so it can never ask for a passphrase.
    return ok(createPrivateKey({ key: block.der, format: 'der', type: KEY_ENCODINGS[block.label] }));
  } catch {
    return fail(`the ${block.label} block is not a valid private key`);
  }
}

function isKeyLabel(label: string): label is KeyLabel {
  return Object.hasOwn(KEY_ENCODINGS, label);
}
