/**
 * Progress while a plan runs: on a terminal one line rewritten in place (`12/40 done`), elsewhere
 * (CI logs) one line per finished operation, since rewritten lines turn into noise in a log file.
 * Lines name kinds, keys and error codes only, never field values, so no secret can reach a log.
 */
import { inert } from '../inert.js';
import type { Operation } from '../plan-format/index.js';
import type { OperationResult } from './types.js';

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
