/** Who this process is, as a lease records it, and whether a recorded holder on this machine is gone. */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { LeaseRecord } from '../resources/ownership/lease-record.js';

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

/** `'acctsync watch' on ops-1 (pid 7) since 2026-11-25T12:01:07Z` */
export function describeHolder(record: LeaseRecord): string {
  const since = record.since.replace(/\.\d+Z$/, 'Z');
  return `'${record.command}' on ${record.host} (pid ${record.pid}) since ${since}`;
}
