/** The default TTL: a renewal every 20 s costs 3 of the live API's 120 requests a minute. */
export const defaultLeaseTtlMs = 60_000;

/**
 * The longest TTL any holder writes (`--lock-ttl` and an idle daemon's). A record that expires
 * further out than this from the service's time now was not written by a holder: it is forged.
 */
export const maxLeaseTtlMs = 10 * 60_000;

/** An idle daemon's TTL, as a multiple of its `--lock-ttl` (at most {@link maxLeaseTtlMs}). */
export const idleTtlFactor = 5;
