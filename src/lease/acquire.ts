/**
 * Taking a scope's lease (docs/lease.md). The only atomic step the API offers is a create refused
 * with 409 when the scope's key exists, so:
 *
 * - read the lease object, if any. Live: it is someone else's. Expired, forged (expiring further
 *   out than any holder writes) or its holder's process on this machine gone: delete it by its id.
 * - create the lease object: 201 and the lease is ours; of two creates at once exactly one gets
 *   it; 409: read again. Two writers taking over the same dead lease both delete that id (one gets
 *   404) and race on the create, which one wins. A lease taken in between has a new id, so a late
 *   delete of the old id cannot remove it.
 *
 * Expiry is in the service's time (its answers' `Date`, {@link ServiceClock}): a holder writes
 * the latest the service's time can be plus its TTL, a reader compares with the earliest it can be.
 * Neither machine's wall clock enters.
 */
import { randomUUID } from 'node:crypto';
import { isAmbiguousWriteFailure, type ApiClient, type ServiceClock } from '../api/index.js';
import { UserError } from '../errors.js';
import type { LeaseRecord } from '../resources/index.js';
import { maxLeaseTtlMs } from './default-ttl.js';
import { describeHolder, holderGone, shownTime, type Holder } from './holder.js';
import { createLease, deleteLease, findLease, isTaken } from './store.js';

/** Creates tried before giving up on a key the service refuses while no lease object is found. */
const rounds = 5;

/**
 * How far past the longest TTL an honest record can reach: its holder's estimate of the service's
 * time is at most one answer's round trip and the `Date` header's second past it.
 */
const forgerySlackMs = 60_000;

type Attempt =
  | {
      readonly held: { readonly id: string; readonly record: LeaseRecord };
      /** The forged record deleted to take the lease, if there was one. */
      readonly forged?: LeaseRecord | undefined;
    }
  | { readonly heldBy: LeaseRecord };

/** The lease record this holder writes, expiring `ttlMs` past the latest the service's time can be. */
export function recordOf(
  scope: string,
  holder: Holder,
  since: string,
  nonce: string,
  ttlMs: number,
  clock: ServiceClock,
): LeaseRecord {
  return { scope, ...holder, since, nonce, expiresAt: new Date(clock.latest() + ttlMs).toISOString() };
}

/** `live` until the service's time passes `expires_at`; `forged` when no holder could have written it. */
export function judge(record: LeaseRecord | undefined, clock: ServiceClock): 'live' | 'expired' | 'forged' {
  const at = record === undefined ? NaN : Date.parse(record.expiresAt);
  if (!Number.isFinite(at) || at <= clock.earliest()) return 'expired';
  return at > clock.latest() + maxLeaseTtlMs + forgerySlackMs ? 'forged' : 'live';
}

/** One attempt at the lease: taken, or the live holder's record. */
export async function tryAcquire(
  client: ApiClient,
  scope: string,
  holder: Holder,
  ttlMs: number,
): Promise<Attempt> {
  const clock = client.serviceClock;
  const nonce = randomUUID();
  let since: string | undefined;
  let forged: LeaseRecord | undefined;
  for (let round = 0; round < rounds; round++) {
    const existing = await findLease(client, scope);
    if (existing !== undefined) {
      const { id, record } = existing;
      // A create whose answer was lost may have made it.
      if (record?.nonce === nonce) return { held: { id, record }, forged };
      const state = judge(record, clock);
      if (record !== undefined && state === 'live' && !holderGone(record, holder)) return { heldBy: record };
      if (state === 'forged') forged = record;
      await deleteLease(client, id);
    }
    since ??= new Date(clock.earliest()).toISOString();
    const record = recordOf(scope, holder, since, nonce, ttlMs, clock);
    try {
      return { held: { id: await createLease(client, record), record }, forged };
    } catch (err) {
      if (!isTaken(err) && !isAmbiguousWriteFailure(err)) throw err;
    }
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

/** When `holder`'s lease expires unless renewed, to the second (the service's time). */
export function expiryOf(holder: LeaseRecord): string {
  return shownTime(holder.expiresAt);
}

/** What to say of a forged lease taken over: someone wrote a record no holder writes. */
export function forgedWarning(scope: string, record: LeaseRecord): string {
  return (
    `took over the lease on scope ${scope}: its record (${describeHolder(record)}) claimed it until ` +
    `${shownTime(record.expiresAt)}, further out than any holder writes (${maxLeaseTtlMs / 60_000} minutes); ` +
    'someone with access to the account wrote it'
  );
}

/** Another process holds the scope: `sync` and its kin refuse to write. */
export class LeaseHeldError extends UserError {
  readonly holder: LeaseRecord;

  /** `unlock` is the command that breaks this lease as the user runs it (with its config and `--env`). */
  constructor(scope: string, holder: LeaseRecord, unlock = `acctsync unlock ${scope} --force`) {
    super(`scope ${scope} is held by ${describeHolder(holder)}`, {
      details: [
        `Nothing was changed. Its lease expires at ${expiryOf(holder)} (the service's time) unless renewed:`,
        `wait for it with --lock-timeout DURATION, or, if that process is gone, break it with: ${unlock}`,
      ],
    });
    this.holder = holder;
  }
}

/** How long to wait before asking again: until the holder's lease would expire, at most `pollMs`. */
export function retryDelay(holder: LeaseRecord, pollMs: number, clock: ServiceClock): number {
  const untilExpiry = Date.parse(holder.expiresAt) - clock.earliest();
  return Math.max(50, Math.min(pollMs, Number.isFinite(untilExpiry) ? untilExpiry + 10 : pollMs));
}
