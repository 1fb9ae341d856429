/** The default TTL: a renewal every 20 s costs 3 of the live API's 120 requests a minute. */
export const defaultLeaseTtlMs = 60_000;
