/**
 * Runs policy rules in a worker thread with bounds: a rule is written by whoever can push a branch
 * and evaluated over values a dashboard user sets, and CEL's macros nest without limit (nine nested
 * `all()` ran for minutes; five nested `map()` over 100 items exhausted the heap and killed the
 * process). Each evaluation has a time budget, every evaluation of a run together another, and the
 * worker's heap is capped: past one, the worker is stopped (a fresh one takes the next rule) and
 * the rule fails with the bound it hit, while this thread (a daemon's `/healthz`) never stops
 * answering.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { secondsText } from '../duration.js';
import { ruleVariables } from './environment.js';
import { ruleWorkerSource } from './rule-worker-source.js';
import type { PolicyRule } from './types.js';

/** What the worker needs of a rule. */
type RuleProgram = Pick<PolicyRule, 'expression'> & { readonly on: string };

/**
 * The program a sandbox's worker runs, and what it is given: it answers `{id, on, expression,
 * variables}` with `{id, value}` or `{id, error}` (and `missing`, the variable it needed and was
 * not given). Policy rules have theirs; traffic-policy expressions another (src/traffic).
 */
interface SandboxProgram {
  readonly source: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The policy rules' program. */
function ruleProgram(): SandboxProgram {
  return {
    source: ruleWorkerSource,
    data: {
      celLibrary: require.resolve('@marcbachmann/cel-js'),
      re2js: require.resolve('re2js'),
      variables: ruleVariables,
    },
  };
}

/** What a sandbox bounds; the policy rules' bounds are documented in docs/traffic-policy.md ("Bounds"). */
export interface SandboxBounds {
  /** One evaluation. */
  readonly evaluationMs: number;
  /** Every evaluation of one run together. */
  readonly runMs: number;
  /** The worker's heap. */
  readonly memoryMb: number;
}

const ruleBounds: SandboxBounds = {
  /** One rule over one object or change. */
  evaluationMs: 1_000,
  /** Every evaluation of one run (validate, plan, a reconcile) together. */
  runMs: 10_000,
  /** The worker's heap. */
  memoryMb: 64,
};

/** What one evaluation gave: the rule's value (`true` holds), its error, or the bound it passed. */
export type RuleOutcome =
  | { readonly kind: 'value'; readonly value: true | false | string }
  | {
      readonly kind: 'error';
      readonly message: string;
      readonly missing?: string;
      /** The worker failed, not the rule: nothing is known of the rule's value. */
      readonly fault?: true;
    }
  | { readonly kind: 'exceeded'; readonly bound: keyof SandboxBounds; readonly message: string };

interface Answer {
  readonly ready?: true;
  readonly id?: number;
  readonly value?: true | false | string;
  readonly error?: string;
  readonly missing?: string;
}

const require = createRequire(import.meta.url);

/** Starting a worker loads the CEL library in it: slow on a loaded machine, and not the rule's time. */
const startTimeoutMs = 60_000;

class SandboxStartError extends Error {}

/** Evaluations one at a time, so that a budget that runs out is the running rule's. */
export class RuleSandbox {
  readonly #bounds: SandboxBounds;
  readonly #program: SandboxProgram;
  #worker: Promise<Worker> | undefined;
  #nextId = 0;
  #spentMs = 0;

  constructor(bounds: SandboxBounds = ruleBounds, program: SandboxProgram = ruleProgram()) {
    this.#bounds = bounds;
    this.#program = program;
  }

  async evaluate(rule: RuleProgram, variables: Readonly<Record<string, unknown>>): Promise<RuleOutcome> {
    const left = this.#bounds.runMs - this.#spentMs;
    if (left <= 0)
      return {
        kind: 'exceeded',
        bound: 'runMs',
        message: `not evaluated: the policy rules used up their time budget of ${secondsText(this.#bounds.runMs)} for this run`,
      };
    const budgetMs = Math.min(this.#bounds.evaluationMs, left);
    const started = performance.now();
    try {
      return await this.#run(rule, variables, budgetMs);
    } finally {
      this.#spentMs += performance.now() - started;
    }
  }

  /** Stops the worker; the sandbox starts another if asked to evaluate again. */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await (await worker?.catch(() => undefined))?.terminate();
  }

  /** A worker that has loaded the CEL library and waits for rules. */
  async #start(): Promise<Worker> {
    const worker = new Worker(this.#program.source, {
      eval: true,
      workerData: this.#program.data,
      resourceLimits: { maxOldGenerationSizeMb: this.#bounds.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    // A worker waiting for the next rule must not keep a finished command alive.
    worker.unref();
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new SandboxStartError('did not start within 60 s')),
          startTimeoutMs,
        );
        worker.once('message', () => {
          clearTimeout(timer);
          resolve();
        });
        worker.once('error', (error) => {
          clearTimeout(timer);
          reject(new SandboxStartError(error.message));
        });
      });
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return worker;
  }

  async #run(
    rule: RuleProgram,
    variables: Readonly<Record<string, unknown>>,
    budgetMs: number,
  ): Promise<RuleOutcome> {
    const starting = (this.#worker ??= this.#start());
    let worker: Worker;
    try {
      worker = await starting;
    } catch (error) {
      if (this.#worker === starting) this.#worker = undefined;
      return {
        kind: 'error',
        message: `the rules' worker failed to start: ${(error as Error).message}`,
        fault: true,
      };
    }
    const id = this.#nextId++;
    return new Promise<RuleOutcome>((resolve) => {
      const stop = (outcome: RuleOutcome & { stopped?: boolean }): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (outcome.kind === 'exceeded' || outcome.stopped === true) {
          if (this.#worker === starting) this.#worker = undefined;
          void worker.terminate();
        }
        const { stopped: _, ...result } = outcome;
        resolve(result);
      };
      const onMessage = (answer: Answer): void => {
        if (answer.id !== id) return;
        stop(
          answer.error === undefined
            ? { kind: 'value', value: answer.value ?? 'nothing' }
            : {
                kind: 'error',
                message: answer.error,
                ...(answer.missing === undefined ? {} : { missing: answer.missing }),
              },
        );
      };
      const onError = (error: Error & { code?: string }): void => {
        stop(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? {
                kind: 'exceeded',
                bound: 'memoryMb',
                message: `stopped: it used more than its memory bound of ${this.#bounds.memoryMb} MB`,
              }
            : {
                kind: 'error',
                message: `the rule's worker failed: ${error.message}`,
                fault: true,
                stopped: true,
              },
        );
      };
      const onExit = (): void =>
        stop({ kind: 'error', message: "the rule's worker stopped", fault: true, stopped: true });
      const timer = setTimeout(
        () =>
          stop({
            kind: 'exceeded',
            bound: budgetMs < this.#bounds.evaluationMs ? 'runMs' : 'evaluationMs',
            message: `stopped: it ran longer than its time budget of ${secondsText(budgetMs)}`,
          }),
        budgetMs,
      );
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ id, on: rule.on, expression: rule.expression, variables });
    });
  }
}
