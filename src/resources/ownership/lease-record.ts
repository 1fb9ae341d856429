/**
 * The lease record: the member of an SSH credential's `metadata` that, with the scope's derived key,
 * makes it a scope's lease (docs/lease.md, `lease-object.ts`). Only `src/lease/` writes it.
 */
import { isPlainObject } from '../../plain-object.js';

/** The metadata member holding a lease; distinct from the ownership marker's, so no plan mistakes one for the other. */
const leaseMember = 'acctsync_lease';

/** Who holds a scope, and until when. */
export interface LeaseRecord {
  readonly scope: string;
  /** The command holding it, `acctsync watch`. */
  readonly command: string;
  readonly host: string;
  readonly pid: number;
  /** When this holder took the lease (RFC 3339). */
  readonly since: string;
  /** The holder's last renewal plus its TTL (RFC 3339): after it anyone may take the lease over. */
  readonly expiresAt: string;
  /** Random per acquisition: a holder recognises its own record after a create whose answer was lost. */
  readonly nonce: string;
  /** The pid namespace and boot of the holder's machine, when it could read them (Linux). */
  readonly machine?: string;
}

function asRecord(value: unknown): LeaseRecord | undefined {
  if (!isPlainObject(value)) return undefined;
  const { scope, command, host, pid, since, expires_at: expiresAt, nonce, machine } = value;
  if (
    typeof scope !== 'string' ||
    typeof command !== 'string' ||
    typeof host !== 'string' ||
    typeof pid !== 'number' ||
    typeof since !== 'string' ||
    typeof expiresAt !== 'string' ||
    typeof nonce !== 'string'
  )
    return undefined;
  return {
    scope,
    command,
    host,
    pid,
    since,
    expiresAt,
    nonce,
    ...(typeof machine === 'string' ? { machine } : {}),
  };
}

/** The lease a live record's `metadata` holds, if it holds one. */
export function parseLeaseRecord(metadata: unknown): LeaseRecord | undefined {
  if (typeof metadata !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(metadata);
    return isPlainObject(parsed) ? asRecord(parsed[leaseMember]) : undefined;
  } catch {
    return undefined;
  }
}

/** The `metadata` that holds `lease`. */
export function formatLeaseRecord(lease: LeaseRecord): string {
  const { expiresAt, ...rest } = lease;
  return JSON.stringify({ [leaseMember]: { ...rest, expires_at: expiresAt } });
}
