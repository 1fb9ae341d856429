/**
 * The cross-field rule of a traffic-policy rule (EndpointRule): each expression compiles as CEL
 * over the platform's TLS variables and macros, and each action is of a documented type with a
 * documented configuration. The loader reports a broken one at the offending token of the YAML
 * scalar; the emulator answers it with 400 and stores nothing, as the service does.
 */
import { ErrorCode } from './error-codes.js';
import type { Rule, Violation } from './types.js';
import { checkPolicyAction, checkPolicyExpression } from '../traffic-policy/index.js';
import { isPlainObject } from '../plain-object.js';

/** An expression as a message quotes it: on one line, and cut when long. */
function quoted(expression: string): string {
  const line = expression.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 77)}...` : line);
}

function ruleLabel(body: Readonly<Record<string, unknown>>): string {
  return typeof body.name === 'string' && body.name !== '' ? `rule ${JSON.stringify(body.name)}` : 'a rule';
}

export const policyRuleCompiles: Rule = {
  name: 'policy-rule-compiles',
  description:
    "Each of a traffic-policy rule's expressions compiles as CEL over the platform's TLS variables and macros; each action is of a documented type.",
  check(body) {
    const out: Violation[] = [];
    const label = ruleLabel(body);
    const expressions = Array.isArray(body.expressions) ? body.expressions : [];
    expressions.forEach((expression, i) => {
      if (typeof expression !== 'string') return;
      const problem = checkPolicyExpression(expression);
      if (problem === undefined) return;
      out.push({
        path: ['expressions', i],
        message: `${label}: expression ${quoted(expression)} does not compile: ${problem.message}`,
        code: ErrorCode.validationFailed,
        offset: problem.offset,
        ...(problem.hint === undefined ? {} : { hint: problem.hint }),
      });
    });
    const actions = Array.isArray(body.actions) ? body.actions : [];
    actions.forEach((action, i) => {
      if (!isPlainObject(action)) return;
      for (const p of checkPolicyAction(action)) {
        out.push({
          path: ['actions', i, ...p.path],
          message: `${label}: ${p.message}`,
          code: ErrorCode.validationFailed,
          ...(p.hint === undefined ? {} : { hint: p.hint }),
        });
      }
    });
    return out;
  },
};
