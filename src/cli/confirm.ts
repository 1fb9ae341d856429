/**
 * Interactive confirmation before `sync` destroys anything, as Terraform's apply asks. Only on a
 * terminal: in CI (no terminal) nothing waits for an answer that will never come.
 */
import { counted } from '../count.js';
import { createInterface } from 'node:readline/promises';
import { UserError } from '../errors.js';
import type { Plan } from '../plan-format/index.js';

/** Deletes and replaces (a replace deletes the old object), counted once per object. */
function destructiveCount(plan: Plan): number {
  const keys = new Set(
    plan.operations.filter((op) => op.action === 'delete').map((op) => op.replaces ?? op.id),
  );
  return keys.size;
}

interface Terminal {
  readonly input: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly output: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Whether `sync` must ask: a terminal on both sides, something to destroy, and no `--yes`. */
export function mustConfirm(plan: Plan, terminal: Terminal, yes: boolean): boolean {
  return (
    !yes && terminal.input.isTTY === true && terminal.output.isTTY === true && destructiveCount(plan) > 0
  );
}

/**
 * Asks on the terminal; anything but `yes` cancels.
 * @throws {UserError} when the answer is not `yes`: nothing was changed
 */
export async function confirmDestruction(plan: Plan, terminal: Terminal): Promise<void> {
  const n = destructiveCount(plan);
  const rl = createInterface({ input: terminal.input, output: terminal.output });
  try {
    const answer = await rl.question(
      `\nThis sync deletes or replaces ${counted(n, 'object', 'objects')}. Only 'yes' goes on.\n  Enter a value: `,
    );
    if (answer.trim() !== 'yes') throw new UserError('sync cancelled: nothing was changed');
  } finally {
    rl.close();
  }
}
