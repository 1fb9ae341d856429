/**
 * Traffic-policy expressions evaluated offline: compiled by the checker's one compilation
 * (`compilePolicyExpression`), run in the policy rules' bounded sandbox (a worker thread with a
 * time budget per expression and per run, and a capped heap) on the evaluation program of
 * src/traffic-policy. A result the sample cannot decide is `unknown`, with the variable it needed.
 */
import { RuleSandbox } from '../policy/index.js';
import { compilePolicyExpression, evaluationProgram, variableOfAlias } from '../traffic-policy/index.js';

type ExpressionResult =
  | { readonly kind: 'value'; readonly value: boolean }
  | { readonly kind: 'unknown'; readonly variable?: string; readonly reason: string };

/** One per run: evaluations share the run's time budget; `close()` stops the worker. */
export class ExpressionEvaluator {
  readonly #sandbox = new RuleSandbox(undefined, evaluationProgram());
  readonly #compiled = new Map<string, ReturnType<typeof compilePolicyExpression>>();

  /** `expression` over `variables` (flat aliases to CEL values: ints as bigint, timestamps as Date). */
  async evaluate(
    expression: string,
    variables: Readonly<Record<string, unknown>>,
  ): Promise<ExpressionResult> {
    let compiled = this.#compiled.get(expression);
    if (compiled === undefined) {
      compiled = compilePolicyExpression(expression);
      this.#compiled.set(expression, compiled);
    }
    if (!compiled.ok) return { kind: 'unknown', reason: `it does not compile: ${compiled.problem.message}` };
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
        return { kind: 'unknown', reason: `it was ${outcome.message}` };
    }
  }

  async close(): Promise<void> {
    await this.#sandbox.close();
  }
}
