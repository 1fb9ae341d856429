/** Who this process is, as a lease records it, and whether a recorded holder on this machine is gone. */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { inert } from '../inert.js';
import type { LeaseRecord } from '../resources/index.js';

export interface Holder {
  /** `acctsync sync`, `acctsync watch`. */
  readonly command: string;
  readonly host: string;
  readonly pid: number;
  readonly machine?: string;
}

/**
 * The boot and pid namespace of this process (Linux): two processes that share them see each
 * other's pids, so one can tell that the other has exited. Elsewhere, undefined.
 */
function machineIdentity(): string | undefined {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}/${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return undefined;
  }
}

export function thisHolder(command: string): Holder {
  const machine = machineIdentity();
  return { command, host: hostname(), pid: process.pid, ...(machine === undefined ? {} : { machine }) };
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether `record`'s holder is a process of this machine and pid namespace that no longer runs (a
 * sync killed with SIGKILL): its lease is free at once instead of after its TTL. A pid reused by
 * another process only makes the lease wait for its TTL.
 */
export function holderGone(record: LeaseRecord, self: Holder): boolean {
  return (
    self.machine !== undefined &&
    record.machine === self.machine &&
    record.host === self.host &&
    record.pid !== self.pid &&
    !running(record.pid)
  );
}

/**
 * A time from a lease record, to the second. Anyone with access to the account can write the
 * record: anything but an RFC 3339 UTC time is not shown.
 */
export function shownTime(value: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(value)
    ? value.replace(/\.\d+Z$/, 'Z')
    : 'an unreadable time';
}

/**
 * `'acctsync watch' on ops-1 (pid 7) since 2026-11-25T12:01:07Z`, inert: the record's text is
 * anyone's with access to the account (a dashboard user's escape sequences are shown escaped).
 */
export function describeHolder(record: LeaseRecord): string {
  return `'${inert(record.command)}' on ${inert(record.host)} (pid ${record.pid}) since ${shownTime(record.since)}`;
}
