/**
 * The token file's part in a plan (`--token-output`, `--recapture-tokens`): which paired
 * token-bearing objects it holds no token for, which of those are replaced to capture a new one,
 * and the notes that warn about tokens nobody will be able to read again.
 */
import { descriptorOf } from '../../resources/index.js';
import type { Paired } from '../match.js';
import type { Operation, TokenFileView } from '../../plan-format/index.js';

export interface TokenCapture {
  /** Paired token-bearing objects whose token the token file does not hold. */
  readonly uncaptured: readonly Paired[];
  /** Keys of the uncaptured objects replaced to capture a new token. */
  readonly recaptured: ReadonlySet<string>;
}

export const recaptureReason =
  'its token is not in the token file: a new one is created to capture the token';

export function tokenCapture(paired: readonly Paired[], tokens: TokenFileView | undefined): TokenCapture {
  if (tokens === undefined) return { uncaptured: [], recaptured: new Set() };
  const uncaptured = paired.filter(
    (m) =>
      !m.adopted &&
      descriptorOf(m.desired.kind).tokenField !== undefined &&
      !tokens.capturedIds.has(m.live.id),
  );
  return { uncaptured, recaptured: new Set(tokens.recapture ? uncaptured.map((m) => m.desired.key) : []) };
}

/**
 * Notes on the tokens the creates will return. Without a token file they are named: once the
 * create answered, nothing can get them back.
 */
export function tokenNotes(operations: readonly Operation[], noTokenFile: boolean): string[] {
  const creates = operations.filter(
    (op) => op.action === 'create' && descriptorOf(op.kind).tokenField !== undefined,
  );
  if (creates.length === 0) return [];
  const titles = [...new Set(creates.map((op) => descriptorOf(op.kind).titlePlural))].join(' and ');
  const note = `tokens of new ${titles} are shown only once, by the create response: they are saved only with --token-output FILE`;
  if (!noTokenFile) return [note];
  return [`${note}; without it the tokens of ${creates.map((op) => op.key).join(', ')} are unrecoverable`];
}

/** Notes on the uncaptured tokens left as they are (no `--recapture-tokens`). */
export function uncapturedNotes(capture: TokenCapture): string[] {
  return capture.uncaptured
    .filter((m) => !capture.recaptured.has(m.desired.key))
    .map(
      (m) =>
        `${m.desired.key} (${m.live.id}): its token is not in the token file and the API never shows it again: sync --recapture-tokens replaces it with a new one whose token is saved`,
    );
}
