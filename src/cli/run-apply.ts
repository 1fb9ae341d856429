/**
 * The part of `sync` and `apply` that is the same: how their run applies (progress on stderr,
 * Ctrl-C) and how its result is rendered (the refusal as an error, the outcome on stdout, the
 * exit code). Everything is checked by the run before the first write: policy, guards, then the
 * token file (an unreadable one must not be found out after keys were created).
 */
import {
  lineProgress,
  renderResultJson,
  renderResultText,
  ttyProgress,
  type ApplyResult,
  type GuardOptions,
} from '../apply/index.js';
import type { Plan } from '../plan-format/index.js';
import type { RunInputs, RunResult } from '../pipeline/index.js';
import { PolicyRefusal } from '../policy/index.js';
import { exitStatus } from './exit-codes.js';
import { printPolicyAnnotations } from './policy.js';
import { renderPlan, useColor } from './plan-output.js';

/** What the command line decided. */
export interface RunSettings {
  readonly parallelism: number;
  readonly continueOnError: boolean;
  /** `--force` and the limits given as flags; the config's `guards:` fill the rest. */
  readonly guards: Partial<GuardOptions> & { readonly force: boolean };
  readonly tokenOutput: string | undefined;
  readonly output: 'text' | 'json';
}

interface Streams {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown; readonly isTTY?: boolean };
}

/** A command's apply: its progress, and Ctrl-C handled from the first write until `done`. */
interface CommandApply {
  readonly apply: NonNullable<RunInputs['apply']>;
  /** Stops listening for Ctrl-C. */
  done(): void;
}

/**
 * How `sync` and `apply` apply: progress on stderr; on Ctrl-C, no more operations start (those
 * running finish, so the account is never left with a request in doubt that nobody will report).
 * `beforeApply` shows the plan and may ask for confirmation (a rejection stops before any change).
 */
export function commandApply(
  settings: RunSettings,
  streams: Streams,
  beforeApply: (plan: Plan) => void | Promise<void>,
): CommandApply {
  const interrupt = new AbortController();
  const onSigint = (): void => {
    streams.stderr.write('\nInterrupted: finishing the operations in flight, starting no more.\n');
    interrupt.abort();
  };
  return {
    apply: {
      parallelism: settings.parallelism,
      continueOnError: settings.continueOnError,
      tokenOutput: settings.tokenOutput,
      signal: interrupt.signal,
      progress: (plan) => {
        const total = plan.operations.length;
        return streams.stderr.isTTY === true
          ? ttyProgress(streams.stderr, total)
          : lineProgress(streams.stderr, total);
      },
      async beforeApply({ plan }) {
        printPolicyAnnotations(plan.policy, process.env, streams.stderr);
        await beforeApply(plan);
        process.once('SIGINT', onSigint);
      },
    },
    done: () => process.removeListener('SIGINT', onSigint),
  };
}

/**
 * The outcome of a run of `sync` or `apply`: a refusal thrown as its error (a broken policy rule
 * with the plan printed first when `showPlan`), else the result on stdout.
 * @returns the process exit code: 0 when every operation is done, 1 otherwise
 */
export function renderApplied(
  run: { readonly result: RunResult; readonly leaseLost?: unknown },
  settings: RunSettings,
  streams: Streams & { readonly showPlanOnPolicyRefusal: boolean },
): number {
  const { result } = run;
  if (result.status === 'refused' && result.refusal !== undefined) {
    printPolicyAnnotations(result.plan.policy, process.env, streams.stderr);
    if (result.refusal instanceof PolicyRefusal && streams.showPlanOnPolicyRefusal)
      streams.stdout.write(renderPlan(result.plan, 'text', useColor(process.env, process.stdout.isTTY)));
    throw result.refusal;
  }
  // Stopped before the first write: the lease was lost (a `LeaseLostError` saying so).
  if (result.status === 'stopped')
    throw result.reason instanceof Error ? result.reason : new Error(String(result.reason));
  if (result.status !== 'applied') throw new Error(`a run that applies ended ${result.status}`);
  const { plan, applied } = result;
  if (settings.output === 'json') streams.stdout.write(renderResultJson(plan, applied));
  // An empty plan already said "No changes"; a line of zero counts would only add noise.
  else if (plan.operations.length > 0) streams.stdout.write(renderResultText(applied));
  if (run.leaseLost instanceof Error && applied.status !== 'succeeded')
    streams.stderr.write(`error: ${run.leaseLost.message}\n`);
  return exitCodeOf(applied);
}

function exitCodeOf(result: ApplyResult): number {
  return result.status === 'succeeded' ? exitStatus.success : exitStatus.error;
}
