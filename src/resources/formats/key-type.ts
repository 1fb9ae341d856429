import type { KeyObject } from 'node:crypto';

/** The key algorithms the platform accepts for TLS certificates (`private_key_type`). */
export type KeyType = 'rsa' | 'ecdsa' | 'ed25519';

/** node:crypto's name for each supported algorithm (RSA-PSS-only keys, Ed448, DSA, ... are not). */
const KEY_TYPES: Readonly<Record<string, KeyType>> = { rsa: 'rsa', ec: 'ecdsa', ed25519: 'ed25519' };

/** The platform's name for the algorithm of `key`, or undefined when the platform does not accept it. */
export function keyTypeOf(key: KeyObject): KeyType | undefined {
  return key.asymmetricKeyType === undefined ? undefined : KEY_TYPES[key.asymmetricKeyType];
}
