/**
 * Long lists of details (a failed apply of 400 operations, a config with 100 errors) capped where an
 * operator reads them: `/readyz`, `/status` and the log line of a reconcile. The full list is in
 * the per-operation log lines and diagnostics.
 */

/** Details shown before the rest is only counted. */
const detailsShown = 20;

/** `details` capped, with `moreDetails` counting what was left out; empty when there are none. */
export function cappedDetails(details: readonly string[] | undefined): {
  readonly details?: readonly string[];
  readonly moreDetails?: number;
} {
  if (details === undefined || details.length === 0) return {};
  if (details.length <= detailsShown) return { details };
  return { details: details.slice(0, detailsShown), moreDetails: details.length - detailsShown };
}
