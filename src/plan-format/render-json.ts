/**
 * `--output json`: the plan itself, as saved by `--out`. Sensitive values are already masked in
 * the plan, so this is a plain serialization (made inert for a terminal, still exact); the format
 * is documented in docs/plan-output.md.
 */
import { inertQuoted } from '../inert.js';
import type { Plan } from './types.js';

/** The plan as pretty-printed JSON with a trailing newline; stable for identical plans. */
export function renderJson(plan: Plan): string {
  return `${inertQuoted(JSON.stringify(plan, null, 2))}\n`;
}
