/**
 * Whose an id an account does not have may be, in a config that declares environments: ids are per
 * account, and an id exported from one environment's account is the likeliest stray. The CLI's
 * export and the planner say it alike.
 */
import { inert } from './inert.js';

/** `production's id`, or `another environment's id (a, b)` when the config has several others. */
export function whoseId(otherEnvironments: readonly string[]): string {
  const [only] = otherEnvironments;
  if (otherEnvironments.length === 1 && only !== undefined) return `${inert(only)}'s id`;
  const names = otherEnvironments.length === 0 ? '' : ` (${otherEnvironments.map(inert).join(', ')})`;
  return `another environment's id${names}`;
}
