/**
 * `--lock-timeout` and `--lock-ttl`, shared by the commands that write (`sync`, `apply`, `forget`,
 * `watch`), and taking the scope's lease for them (docs/lease.md).
 */
import { UsageError } from '../errors.js';
import {
  LeaseKeeper,
  ScopeLease,
  defaultLeaseTtlMs,
  describeHolder,
  expiryOf,
  forgedWarning,
  maxLeaseTtlMs,
  shownTime,
} from '../lease/index.js';
import { formatDuration, parseDuration } from '../duration.js';
import { inert } from '../inert.js';
import { targetArguments, type AccountTarget } from './account.js';
import type { Connection } from './connection.js';

/** Below this a renewal (every third of it) would not survive a slow answer. */
const minimumTtlMs = 1000;

interface LeaseValues {
  readonly 'lock-timeout'?: string | undefined;
  readonly 'lock-ttl'?: string | undefined;
}

export interface LeaseFlags {
  readonly ttlMs: number;
  readonly timeoutMs: number;
}

/** @throws {UsageError} for a malformed duration or a TTL too short to renew */
export function leaseFlagsFrom(command: string, values: LeaseValues): LeaseFlags {
  const timeout = values['lock-timeout'];
  const timeoutMs =
    timeout === undefined || timeout.trim() === '0' ? 0 : parseDuration(timeout, '--lock-timeout');
  const ttl = values['lock-ttl'];
  const ttlMs = ttl === undefined ? defaultLeaseTtlMs : parseDuration(ttl, '--lock-ttl');
  if (ttlMs < minimumTtlMs || ttlMs > maxLeaseTtlMs)
    throw new UsageError(
      `${command}: --lock-ttl must be between ${formatDuration(minimumTtlMs)} and ${formatDuration(maxLeaseTtlMs)}`,
    );
  return { ttlMs, timeoutMs };
}

/**
 * Takes `scope`'s lease on the connection's account for `acctsync <command>`. None for the
 * embedded emulator: it is this process's own account, which no other process reaches. `target`
 * is how the user named the account, so that the `unlock` the refusal suggests reaches it too.
 * @throws {LeaseHeldError} naming the holder when the lock timeout passes
 */
export async function holdScope(
  connection: Connection,
  scope: string,
  command: string,
  flags: LeaseFlags,
  target: AccountTarget = { paths: [] },
): Promise<ScopeLease | undefined> {
  if (connection.embedded) return undefined;
  const lease = await ScopeLease.acquire(connection.client, scope, {
    command: `acctsync ${command}`,
    ...flags,
    unlock: `acctsync unlock ${scope}${targetArguments(target)} --force`,
    onWait: (holder, until) =>
      process.stderr.write(
        `acctsync: scope ${inert(scope)} is held by ${inert(describeHolder(holder))} (its lease expires at ${expiryOf(holder)}, the service's time, unless renewed); waiting for it until ${shownTime(until.toISOString())} (--lock-timeout, the service's time)\n`,
      ),
  });
  if (lease.forged !== undefined) process.stderr.write(`warning: ${forgedWarning(scope, lease.forged)}\n`);
  return lease;
}

/**
 * `connection`, whose close releases `lease` first. A release that fails only warns: the lease
 * expires with its TTL, and the command's work is done.
 */
export function withLease(connection: Connection, lease: ScopeLease | undefined): Connection {
  if (lease === undefined) return connection;
  return {
    ...connection,
    async close() {
      try {
        await lease.release();
      } catch (err) {
        process.stderr.write(
          `acctsync: could not release the lease on scope ${lease.scope} (${err instanceof Error ? err.message : String(err)}); it expires with its TTL\n`,
        );
      } finally {
        await connection.close();
      }
    },
  };
}

/**
 * The hold of `watch` on its scope: reconcile mode writes only while holding the lease, a second
 * daemon waits as a standby; observe mode never writes, and the embedded emulator is its own.
 */
export function daemonLease(
  connection: Connection,
  mode: 'reconcile' | 'observe',
  ttlMs: number,
  onLost: () => void,
): LeaseKeeper | undefined {
  if (mode === 'observe' || connection.embedded) return undefined;
  return new LeaseKeeper(connection.client, { command: 'acctsync watch', ttlMs }, onLost);
}
