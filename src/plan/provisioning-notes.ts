/**
 * Notes on failed certificate provisioning: the service reports it on the object
 * (`certificate_management_status.provisioning_job.error_code`), and no operation of the plan shows
 * it, yet the domain serves no managed certificate until it is fixed (DNS records, usually).
 */
import type { Match } from './match.js';

function member(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

/** One note per configured object whose certificate provisioning job failed. */
export function provisioningNotes(matches: readonly Match[]): string[] {
  return matches.flatMap((m) => {
    const job = member(member(m.live?.record, 'certificate_management_status'), 'provisioning_job');
    const code = member(job, 'error_code');
    if (typeof code !== 'string') return [];
    const msg = member(job, 'msg');
    const retries = member(job, 'retries_at');
    return [
      `${m.desired.key}: certificate provisioning failed (${code}${typeof msg === 'string' ? `: ${msg}` : ''})` +
        (typeof retries === 'string' ? `; the service retries at ${retries}` : ''),
    ];
  });
}
