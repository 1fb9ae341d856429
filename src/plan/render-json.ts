/**
 * `--output json`: the plan itself, as saved by `--out`. Sensitive values are already masked in
 * the plan, so this is a plain serialization; the format is documented in docs/plan-output.md.
 */
import type { Plan } from './types.js';

/** The plan as pretty-printed JSON with a trailing newline; stable for identical plans. */
export function renderJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}
