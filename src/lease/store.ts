/**
 * The lease object in the account: an SSH credential whose key is derived from the scope
 * (`resources/ownership/lease-key.ts`), whose `metadata` holds the lease record. Only this module reads and writes it.
 */
import { deleteIfPresent, isClaimConflict, type ApiClient } from '../api/index.js';
import {
  claimCode,
  formatLeaseRecord,
  descriptors,
  keyIdentity,
  leasePublicKey,
  parseLeaseRecord,
  type LeaseRecord,
} from '../resources/index.js';

const kind = descriptors.ssh_credentials;
/** Even if someone held the key's private half, the credential could bind nothing. */
const acl = ['bind:acctsync-lease.invalid'];
const description = 'acctsync lease: one writer per scope (docs/lease.md); acctsync unlock SCOPE breaks it';

interface LeaseObject {
  readonly id: string;
  /** Undefined when the object carries no readable lease record (edited by hand). */
  readonly record: LeaseRecord | undefined;
}

/** The lease object of `scope`, if the account has one. */
export async function findLease(client: ApiClient, scope: string): Promise<LeaseObject | undefined> {
  const wanted = keyIdentity(leasePublicKey(scope));
  const records = await client.listAll<Record<string, unknown>>(kind.path, kind.listMember ?? '');
  const found = records.find((r) => keyIdentity(r.public_key) === wanted);
  if (found === undefined) return undefined;
  return { id: String(found.id), record: parseLeaseRecord(found.metadata) };
}

/** Creates the lease object; the service answers 409 when another exists (see {@link isTaken}). */
export async function createLease(client: ApiClient, record: LeaseRecord): Promise<string> {
  const { body } = await client.request<Record<string, unknown>>('POST', kind.path, {
    body: { description, metadata: formatLeaseRecord(record), public_key: leasePublicKey(record.scope), acl },
  });
  return String(body.id);
}

/** Rewrites the record of the lease object `id`; a 404 (someone broke the lease) is thrown. */
export async function writeLease(client: ApiClient, id: string, record: LeaseRecord): Promise<void> {
  await client.patch(`${kind.path}/${id}`, { metadata: formatLeaseRecord(record) });
}

/** Deletes the lease object `id`; one already gone is fine. Never another lease: a new one has a new id. */
export async function deleteLease(client: ApiClient, id: string): Promise<void> {
  await deleteIfPresent(client, `${kind.path}/${id}`);
}

/** Whether a create failed because the scope's key is registered already (409; a 400 with its code on the live service). */
export function isTaken(err: unknown): boolean {
  return isClaimConflict(err, claimCode(kind));
}
