/** The applier's defaults, apart from the applier so that `--help` can print them cheaply. */

/**
 * Operations running at once by default. The live API allows about 120 requests a minute (2/s); an
 * operation is one to three requests of 100-500 ms, so 4 workers already reach that rate with room
 * for slow responses, stay under the client's 8 connections (recovery lookups still get a slot),
 * and bound how much is in flight when a failure stops the run. See docs/apply.md.
 */
export const defaultParallelism = 4;

/** The mass-delete guard's limits when neither the config nor a flag sets them. */
export const defaultGuardOptions = {
  force: false,
  maxDeletePercent: 30,
  maxDeleteMinManaged: 10,
} as const;
