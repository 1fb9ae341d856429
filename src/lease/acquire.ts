/**
 * Taking a scope's lease (docs/lease.md). The only atomic step the API offers is a create refused
 * with 409 when the scope's key exists, so:
 *
 * - create the lease object: 201 and the lease is ours; of two creates at once exactly one gets it;
 * - 409: read the object. Live: it is someone else's. Expired (or its holder's process on this
 *   machine is gone): delete it by its id and create again. Two writers taking over the same dead
 *   lease both delete that id (one gets 404) and race on the create, which one wins. A lease taken
 *   in between has a new id, so a late delete of the old id cannot remove it.
 */
import { randomUUID } from 'node:crypto';
import { isAmbiguousWriteFailure, type ApiClient } from '../api/index.js';
import { UserError } from '../errors.js';
import type { LeaseRecord } from '../resources/ownership/lease-record.js';
import { describeHolder, holderGone, type Holder } from './holder.js';
import { createLease, deleteLease, findLease, isTaken } from './store.js';

/** Creates tried before giving up on a key the service refuses while no lease object is found. */
const rounds = 5;

type Attempt =
  { readonly held: { readonly id: string; readonly record: LeaseRecord } } | { readonly heldBy: LeaseRecord };

/** The lease record this holder writes, expiring `ttlMs` from now. */
export function recordOf(
  scope: string,
  holder: Holder,
  since: string,
  nonce: string,
  ttlMs: number,
): LeaseRecord {
  return { scope, ...holder, since, nonce, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
}

function expired(record: LeaseRecord, now = Date.now()): boolean {
  const at = Date.parse(record.expiresAt);
  return !Number.isFinite(at) || at <= now;
}

/** One attempt at the lease: taken, or the live holder's record. */
export async function tryAcquire(
  client: ApiClient,
  scope: string,
  holder: Holder,
  ttlMs: number,
): Promise<Attempt> {
  const since = new Date().toISOString();
  const nonce = randomUUID();
  for (let round = 0; round < rounds; round++) {
    const record = recordOf(scope, holder, since, nonce, ttlMs);
    try {
      return { held: { id: await createLease(client, record), record } };
    } catch (err) {
      if (!isTaken(err) && !isAmbiguousWriteFailure(err)) throw err;
    }
    const existing = await findLease(client, scope);
    if (existing === undefined) continue;
    // A create whose answer was lost may have made it.
    if (existing.record?.nonce === nonce) return { held: { id: existing.id, record: existing.record } };
    const live =
      existing.record !== undefined && !expired(existing.record) && !holderGone(existing.record, holder);
    if (live && existing.record !== undefined) return { heldBy: existing.record };
    await deleteLease(client, existing.id);
  }
  throw new UserError(
    `cannot take the lease on scope ${scope}: the service refuses its key, but this account shows no lease`,
    {
      details: [
        'SSH keys may be unique across accounts on the service: another account may use acctsync with the scope name',
        `'${scope}'. Give this config a more specific scope (docs/lease.md).`,
      ],
    },
  );
}

/** When `holder`'s lease expires unless renewed, to the second. */
export function expiryOf(holder: LeaseRecord): string {
  return holder.expiresAt.replace(/\.\d+Z$/, 'Z');
}

/** Another process holds the scope: `sync` and its kin refuse to write. */
export class LeaseHeldError extends UserError {
  readonly holder: LeaseRecord;

  /** `unlock` is the command that breaks this lease as the user runs it (with its config and `--env`). */
  constructor(scope: string, holder: LeaseRecord, unlock = `acctsync unlock ${scope}`) {
    super(`scope ${scope} is held by ${describeHolder(holder)}`, {
      details: [
        `Nothing was changed. Its lease expires at ${expiryOf(holder)} unless renewed:`,
        `wait for it with --lock-timeout DURATION, or, if that process is gone, break it with: ${unlock}`,
      ],
    });
    this.holder = holder;
  }
}

/** How long to wait before asking again: until the holder's lease would expire, at most `pollMs`. */
export function retryDelay(holder: LeaseRecord, pollMs: number): number {
  const untilExpiry = Date.parse(holder.expiresAt) - Date.now();
  return Math.max(50, Math.min(pollMs, Number.isFinite(untilExpiry) ? untilExpiry + 10 : pollMs));
}
