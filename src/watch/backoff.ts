/** How long the loop waits before the next reconcile: the interval with jitter, or a backoff after failures. */

/** Random source in [0, 1); injected by tests. */
export type Random = () => number;

/**
 * The resync interval spread by ±`ratio`, so that many daemons started together (a fleet rolled out
 * at once) do not all hit the API in the same second.
 */
export function jitteredInterval(intervalMs: number, ratio: number, random: Random = Math.random): number {
  return Math.round(intervalMs * (1 + ratio * (2 * random() - 1)));
}

export interface BackoffPolicy {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** The delay never grows past this. */
  readonly maxMs: number;
}

/**
 * Exponential backoff after `failures` consecutive failures (1 = the first), capped, with "equal
 * jitter" (half fixed, half random): retries of daemons that failed together spread out, and the
 * delay never drops below half its nominal value, so a failing config cannot become a hot loop.
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: Random = Math.random): number {
  const nominal = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(nominal / 2 + (nominal / 2) * random());
}
