/**
 * The SSH public key that guards a scope's lease. The service refuses to register one SSH key twice
 * (409, ERR_SVC_609), so two writers creating the credential with this key at the same moment
 * cannot both succeed: the create is the compare-and-swap the API otherwise lacks.
 *
 * The key is a point of the Ed25519 curve derived from a hash of the scope ("nothing up my
 * sleeve"): every writer computes the same one, and nobody knows a private key for it, so the
 * credential can never authenticate an agent.
 */
import { createHash } from 'node:crypto';
import { parseSshPublicKey } from '../formats/index.js';

const p = 2n ** 255n - 19n;

function power(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = ((base % p) + p) % p;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % p;
    b = (b * b) % p;
  }
  return result;
}

const inverse = (value: bigint): bigint => power(value, p - 2n);
/** The curve constant d = -121665/121666 (RFC 8032). */
const d = (((-121665n * inverse(121666n)) % p) + p) % p;

/** Whether 32 bytes are the encoding of a point of Ed25519 (RFC 8032 5.1.3, decoding). */
function isEd25519Point(bytes: Uint8Array): boolean {
  if (bytes.length !== 32) return false;
  let y = 0n;
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(bytes[i] ?? 0);
  const sign = y >> 255n;
  y &= (1n << 255n) - 1n;
  if (y >= p) return false;
  const y2 = (y * y) % p;
  const x2 = (((((y2 - 1n) % p) + p) % p) * inverse((d * y2 + 1n) % p)) % p;
  if (x2 === 0n) return sign === 0n;
  return power(x2, (p - 1n) / 2n) === 1n;
}

function sshString(data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  return Buffer.concat([length, data]);
}

/** The OpenSSH line (`ssh-ed25519 <base64>`) of the key guarding `scope`'s lease. */
export function leasePublicKey(scope: string): string {
  for (let counter = 0; ; counter++) {
    const point = createHash('sha256').update(`acctsync lease v1\0${scope}\0${counter}`).digest();
    if (!isEd25519Point(point)) continue;
    const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(point)]);
    return `ssh-ed25519 ${blob.toString('base64')}`;
  }
}

/** What makes two OpenSSH lines the same key (type and key data, not the comment); undefined for no key. */
export function keyIdentity(key: unknown): string | undefined {
  if (typeof key !== 'string') return undefined;
  const parsed = parseSshPublicKey(key);
  return parsed.ok ? parsed.value.identity : undefined;
}
