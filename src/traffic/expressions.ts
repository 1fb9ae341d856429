/**
 * Traffic-policy expressions evaluated offline: compiled by the checker's one compilation
 * (`compilePolicyExpression`), run in the policy rules' sandbox (a worker thread with a capped
 * heap) on the evaluation program of src/traffic-policy. A result the sample cannot decide is
 * `unknown`, with the variable it needed.
 *
 * What is evaluated is bounded by counts, the same on every machine: an expression larger than
 * `expressionLimits` is not evaluated (`unknown`, saying so), and `lists.range` makes no list longer
 * than its limit. Time and memory are only a safety net against a runaway past those counts: a
 * net that fires stops the whole evaluation with `EvaluationStoppedError`, never an outcome, so a
 * loaded machine fails where a fast one answers, but never answers differently.
 */
import { secondsText } from '../duration.js';
import { UserError } from '../errors.js';
import { RuleSandbox, type SandboxBounds } from '../policy/index.js';
import { compilePolicyExpression, evaluationProgram, variableOfAlias } from '../traffic-policy/index.js';

type ExpressionResult =
  | { readonly kind: 'value'; readonly value: boolean }
  | { readonly kind: 'unknown'; readonly variable?: string; readonly reason: string };

/** The counts an expression is evaluated within (docs/traffic-policy.md, "What-if limits"). */
export const expressionLimits = {
  /** Nodes of its syntax tree. */
  nodes: 1_000,
  /** Comprehensions (`all`, `exists`, `map`, ...) inside one another. */
  comprehensionDepth: 2,
  /** The longest list `lists.range` makes. */
  rangeLength: 10_000,
} as const;

/** The safety net: far past what an expression within the count limits takes, even on a loaded machine. */
const safetyNet: SandboxBounds = { evaluationMs: 5_000, runMs: 120_000, memoryMb: 64 };

/** The net a run uses, for a test that must see it fire; every command uses the default. */
export type SafetyNet = Partial<Pick<SandboxBounds, 'evaluationMs' | 'runMs'>>;

/** The offline evaluation stopped by its safety net: a runaway the count limits did not bound. */
export class EvaluationStoppedError extends UserError {}

/** What stopped the run, in words, by the bound the sandbox names. */
function netText(bound: keyof SandboxBounds, net: SandboxBounds): string {
  switch (bound) {
    case 'evaluationMs':
      return `it ran longer than the safety limit of ${secondsText(net.evaluationMs)} for one expression`;
    case 'runMs':
      return `the run's expressions together ran longer than the safety limit of ${secondsText(net.runMs)}`;
    case 'memoryMb':
      return `it used more than the safety limit of ${net.memoryMb} MB of memory`;
  }
}

/** Why an expression is too large to evaluate, or nothing. */
function pastLimits(size: { nodes: number; comprehensionDepth: number }): string | undefined {
  if (size.nodes > expressionLimits.nodes)
    return `it is not evaluated offline: it has ${size.nodes} syntax nodes, past the limit of ${expressionLimits.nodes}`;
  if (size.comprehensionDepth > expressionLimits.comprehensionDepth)
    return `it is not evaluated offline: it nests ${size.comprehensionDepth} comprehensions, past the limit of ${expressionLimits.comprehensionDepth}`;
  return undefined;
}

/** One per run: evaluations share the run's safety net; `close()` stops the worker. */
export class ExpressionEvaluator {
  readonly #net: SandboxBounds;
  readonly #sandbox: RuleSandbox;
  readonly #compiled = new Map<string, ReturnType<typeof compilePolicyExpression>>();

  constructor(net: SafetyNet = {}) {
    this.#net = { ...safetyNet, ...net };
    this.#sandbox = new RuleSandbox(this.#net, evaluationProgram(expressionLimits.rangeLength));
  }

  /**
   * `expression` over `variables` (flat aliases to CEL values: ints as bigint, timestamps as Date);
   * `where` names it for the error if the safety net stops it (`expression 1 of rule r on ...`).
   */
  async evaluate(
    expression: string,
    variables: Readonly<Record<string, unknown>>,
    where: string,
  ): Promise<ExpressionResult> {
    let compiled = this.#compiled.get(expression);
    if (compiled === undefined) {
      compiled = compilePolicyExpression(expression);
      this.#compiled.set(expression, compiled);
    }
    if (!compiled.ok) return { kind: 'unknown', reason: `it does not compile: ${compiled.problem.message}` };
    const tooLarge = pastLimits(compiled.size);
    if (tooLarge !== undefined) return { kind: 'unknown', reason: tooLarge };
    const outcome = await this.#sandbox.evaluate(
      { on: 'on_tcp_connect', expression: compiled.text },
      variables,
    );
    switch (outcome.kind) {
      case 'value':
        return typeof outcome.value === 'boolean'
          ? { kind: 'value', value: outcome.value }
          : { kind: 'unknown', reason: `it gave ${outcome.value}, not a bool` };
      case 'error':
        if (outcome.fault === true)
          throw new EvaluationStoppedError(
            `the offline traffic evaluation was stopped at ${where}: ${outcome.message}`,
          );
        if (outcome.missing !== undefined) {
          const variable = variableOfAlias(outcome.missing);
          return {
            kind: 'unknown',
            variable,
            reason: `it reads ${variable}, which the connection does not set`,
          };
        }
        return { kind: 'unknown', reason: `it failed: ${outcome.message}` };
      case 'exceeded':
        throw new EvaluationStoppedError(
          `the offline traffic evaluation was stopped at ${where}: ${netText(outcome.bound, this.#net)}`,
          {
            details: [
              'hint: nothing was decided from it; an expression this costly is a runaway: simplify it (docs/traffic-policy.md, "What-if limits")',
            ],
          },
        );
    }
  }

  async close(): Promise<void> {
    await this.#sandbox.close();
  }
}
