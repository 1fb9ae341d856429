/**
 * Which live objects are leases, kept out of plans, exports, `--adopt` and the guards. Only an SSH
 * credential whose public key is the derived key of the scope its record names can be one: that
 * key is what makes the lease exclusive (`lease-key.ts`). Anything else carrying an `acctsync_lease`
 * member (typed into an IP restriction's metadata in the dashboard) is an ordinary object.
 */
import type { KindName } from '../types.js';
import { parseLeaseRecord } from './lease-record.js';
import { keyIdentity, leasePublicKey } from './lease-key.js';

/**
 * Scopes' key identities, derived once each (a derivation hashes until it finds a curve point); the
 * scope names come from records anyone can write, so a daemon keeps only a few.
 */
const derived = new Map<string, string | undefined>();
const remembered = 32;

function derivedIdentity(scope: string): string | undefined {
  if (derived.has(scope)) return derived.get(scope);
  const identity = keyIdentity(leasePublicKey(scope));
  if (derived.size < remembered) derived.set(scope, identity);
  return identity;
}

export function isLeaseObject(kind: KindName, record: Readonly<Record<string, unknown>>): boolean {
  if (kind !== 'ssh_credentials') return false;
  const lease = parseLeaseRecord(record.metadata);
  if (lease === undefined) return false;
  const identity = keyIdentity(record.public_key);
  return identity !== undefined && identity === derivedIdentity(lease.scope);
}
