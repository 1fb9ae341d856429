/**
 * How an apply run is reported: a summary for people, a stable JSON document for machines. Both are
 * built from the `ApplyResult` only, which holds kinds, keys, ids and API error codes, never values.
 */
import { inert, inertQuoted } from '../inert.js';
import type { Plan } from '../plan-format/index.js';
import { describeResult } from './progress.js';
import type { ApplyResult } from './types.js';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/** The closing lines of `sync`/`apply`: failures and skipped operations first, then the counts. */
export function renderResultText(result: ApplyResult): string {
  const lines: string[] = [];
  const failed = result.operations.filter((r) => r.status === 'failed');
  const skipped = result.operations.filter((r) => r.status === 'not-attempted');
  if (failed.length > 0) lines.push('Failed:', ...failed.map((r) => `  ${describeResult(r)}`));
  if (skipped.length > 0) lines.push('Not attempted:', ...skipped.map((r) => `  ${describeResult(r)}`));
  const recovered = result.operations.filter((r) => r.recovery !== undefined);
  if (recovered.length > 0) lines.push('Recovered:', ...recovered.map((r) => `  ${describeResult(r)}`));
  if (result.tokensSaved.length > 0) lines.push(`Tokens saved for: ${inert(result.tokensSaved.join(', '))}`);
  const { done, failed: nFailed, notAttempted } = result.counts;
  const head = result.status === 'succeeded' ? 'Apply complete' : 'Apply FAILED';
  lines.push(
    `${head}: ${done} done, ${nFailed} failed, ${notAttempted} not attempted in ${seconds(result.durationMs)}`,
  );
  if (result.status === 'failed') {
    lines.push(
      'Nothing done is undone: run acctsync sync again once the cause is fixed; it plans only what is left.',
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Format version of {@link renderResultJson}'s document; bumped on incompatible changes. */
const resultFormatVersion = 1;

/** `--output json` of `sync` and `apply`: documented in docs/apply.md. */
export function renderResultJson(plan: Plan, result: ApplyResult): string {
  const doc = {
    formatVersion: resultFormatVersion,
    scope: plan.scope,
    status: result.status,
    durationMs: result.durationMs,
    counts: result.counts,
    planSummary: plan.summary,
    operations: result.operations,
    tokensSaved: result.tokensSaved,
    // The plan is not printed in JSON mode: its notes (a token not in the token file) still reach the reader.
    notes: plan.notes,
  };
  return `${inertQuoted(JSON.stringify(doc, null, 2))}\n`;
}
