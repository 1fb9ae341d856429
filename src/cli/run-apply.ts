/**
 * The part of `sync` and `apply` that is the same: open the token file, pick a progress reporter,
 * apply, print the outcome. Everything is checked before the first write: guards, then the token
 * file (an unreadable one must not be found out after keys were created).
 */
import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../api/index.js';
import type { Plan } from '../plan/types.js';
import type { DesiredState } from '../resources/index.js';
import {
  applyPlan,
  checkGuards,
  fileTokenSink,
  guardOptionsFor,
  lineProgress,
  ttyProgress,
  type ApplyResult,
  type GuardOptions,
} from '../apply/index.js';
import { renderResultJson, renderResultText } from '../apply/render-result.js';
import { exitStatus } from './exit-codes.js';

/** What the command line decided. */
export interface RunSettings {
  readonly parallelism: number;
  readonly continueOnError: boolean;
  /** `--force` and the limits given as flags; the config's `guards:` fill the rest. */
  readonly guards: Partial<GuardOptions> & { readonly force: boolean };
  readonly tokenOutput: string | undefined;
  readonly output: 'text' | 'json';
}

interface RunStreams {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown; readonly isTTY?: boolean };
  /**
   * Runs before applying, after the guards passed: prints the plan text for `sync`, and may ask for
   * confirmation (a rejection stops before any change).
   */
  readonly beforeApply?: () => void | Promise<void>;
  /** Aborted when writing must stop: the scope's lease was lost (its reason is printed). */
  readonly stop?: AbortSignal | undefined;
}

/**
 * Applies `plan` as a command does, printing progress on stderr and the result on stdout.
 * Stops starting operations on Ctrl-C (those running finish, so the account is never left with a
 * request in doubt that nobody will report).
 * @returns the process exit code: 0 when every operation is done, 1 otherwise
 */
export async function runApply(
  plan: Plan,
  desired: DesiredState,
  client: ApiClient,
  settings: RunSettings,
  streams: RunStreams,
): Promise<{ exitCode: number; result: ApplyResult }> {
  const guards = guardOptionsFor(desired, settings.guards);
  checkGuards(plan, desired, guards);
  const tokens = settings.tokenOutput === undefined ? undefined : await fileTokenSink(settings.tokenOutput);
  await streams.beforeApply?.();
  const total = plan.operations.length;
  const progress =
    streams.stderr.isTTY === true ? ttyProgress(streams.stderr, total) : lineProgress(streams.stderr, total);
  const interrupt = new AbortController();
  const onSigint = (): void => {
    streams.stderr.write('\nInterrupted: finishing the operations in flight, starting no more.\n');
    interrupt.abort();
  };
  process.once('SIGINT', onSigint);
  try {
    const result = await applyPlan(plan, desired, client, {
      parallelism: settings.parallelism,
      continueOnError: settings.continueOnError,
      guards,
      progress,
      signal: streams.stop ? writingSignal(interrupt.signal, streams.stop) : interrupt.signal,
      ...(tokens === undefined ? {} : { tokens }),
    });
    if (settings.output === 'json') streams.stdout.write(renderResultJson(plan, result));
    // An empty plan already said "No changes"; a line of zero counts would only add noise.
    else if (plan.operations.length > 0) streams.stdout.write(renderResultText(result));
    const lost: unknown = streams.stop?.aborted ? streams.stop.reason : undefined;
    if (lost instanceof Error && result.status !== 'succeeded')
      streams.stderr.write(`error: ${lost.message}\n`);
    return { exitCode: result.status === 'succeeded' ? exitStatus.success : exitStatus.error, result };
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

/** Aborted by Ctrl-C or a lost lease; every operation in flight listens on it, which is no leak. */
function writingSignal(interrupt: AbortSignal, stop: AbortSignal): AbortSignal {
  const signal = AbortSignal.any([interrupt, stop]);
  setMaxListeners(0, signal);
  return signal;
}
