/**
 * How a run is shown: progress while the plan runs, then the closing summary for people and a
 * stable JSON document for machines. One module because all of it is built from the results
 * (`result.ts`: kinds, keys, ids and API error codes, never field values, so no secret can reach a
 * log; the JSON adds the plan's summary and notes) and every line about an operation is the one
 * {@link describeResult} writes.
 *
 * Progress: on a terminal one line rewritten in place (`12/40 done`), elsewhere (CI logs) one line
 * per finished operation, since rewritten lines turn into noise in a log file.
 */
import { secondsText } from '../duration.js';
import { inert, inertQuoted } from '../inert.js';
import type { Operation, Plan } from '../plan-format/index.js';
import type { ApplyResult, OperationResult } from './result.js';

export interface ApplyProgress {
  started(op: Operation): void;
  finished(result: OperationResult): void;
  /** The run is over: clear whatever the reporter keeps on screen. */
  end(): void;
}

export const silentProgress: ApplyProgress = { started() {}, finished() {}, end() {} };

/** A one-line description of how an operation ended, shared by both reporters and the summary. */
export function describeResult(r: OperationResult): string {
  return inert(describeRaw(r));
}

/** Keys, ids and the API's error messages can hold anything: {@link describeResult} makes them inert. */
function describeRaw(r: OperationResult): string {
  const what = `${r.action} ${r.key}`;
  switch (r.status) {
    case 'done':
      return `${what}: done${r.objectId === undefined ? '' : ` (${r.objectId})`}${r.recovery === undefined ? '' : ` [${r.recovery}]`}`;
    case 'failed':
      return `${what}: FAILED ${r.failure?.errorCode ?? ''}: ${r.failure?.msg ?? ''}${r.failure?.request === undefined ? '' : ` (${r.failure.request})`}`;
    case 'not-attempted':
      return `${what}: not attempted${r.blockedBy === undefined ? '' : ` (depends on ${r.blockedBy})`}`;
  }
}

interface Writable {
  write(chunk: string): unknown;
}

/** One line per finished operation, prefixed with the count so a log still shows how far it got. */
export function lineProgress(out: Writable, total: number): ApplyProgress {
  let finished = 0;
  return {
    started() {},
    finished(result) {
      finished++;
      out.write(`[${finished}/${total}] ${describeResult(result)}\n`);
    },
    end() {},
  };
}

/** A live `done/total` line on a terminal; failures are printed above it as they happen. */
export function ttyProgress(out: Writable, total: number): ApplyProgress {
  let finished = 0;
  let failed = 0;
  const running = new Set<string>();
  const draw = (): void => {
    const current = inert([...running].slice(0, 1).join(''));
    const failedText = failed === 0 ? '' : `, ${failed} failed`;
    out.write(`\r\x1b[2K${finished}/${total} done${failedText}${current === '' ? '' : `  ${current}`}`);
  };
  return {
    started(op) {
      running.add(op.id);
      draw();
    },
    finished(result) {
      running.delete(result.id);
      finished++;
      if (result.status === 'failed') {
        failed++;
        out.write(`\r\x1b[2K${describeResult(result)}\n`);
      }
      draw();
    },
    end() {
      out.write('\r\x1b[2K');
    },
  };
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
    `${head}: ${done} done, ${nFailed} failed, ${notAttempted} not attempted in ${secondsText(result.durationMs)}`,
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
