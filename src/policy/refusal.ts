/** What a run does with the findings of `--policy` rules: one refusal, the same for every command. */
import { counted } from '../count.js';
import type { DesiredState, KindRegistry } from '../resources/index.js';
import { UserError } from '../errors.js';
import type { Plan, PolicyFinding } from '../plan-format/index.js';
import { hasPolicyErrors, policyFindings } from './evaluate.js';
import type { PolicyRule } from './types.js';

/**
 * The findings of `rules` over a plan's desired state (in environment `env`) and its operations,
 * both of the kinds in `kinds`.
 */
export function planFindings(
  rules: readonly PolicyRule[],
  plan: Plan,
  desired: DesiredState,
  { env, kinds }: { readonly env: string; readonly kinds: KindRegistry },
): Promise<PolicyFinding[]> {
  return policyFindings(rules, { state: desired, env, plan, kinds });
}

/** A broken error rule stops the run before any write: `sync`, `apply` and each `watch` reconcile. */
export class PolicyRefusal extends UserError {
  constructor(errors: readonly PolicyFinding[]) {
    super(`${counted(errors.length, 'policy rule is', 'policy rules are')} broken: nothing was written`, {
      details: errors.map((f) => `rule ${f.rule} on ${f.object}: ${f.message}`),
    });
  }
}

/** The refusal when an error rule is broken among `findings`. */
export function policyRefusal(findings: readonly PolicyFinding[]): PolicyRefusal | undefined {
  if (!hasPolicyErrors(findings)) return undefined;
  return new PolicyRefusal(findings.filter((f) => f.severity === 'error'));
}
