/**
 * `--policy PATH` on validate, plan, sync, apply and watch: loads the rules before anything is
 * contacted, turns broken object rules into the config's diagnostics (validate), prints broken
 * rules as GitHub annotations on the object's line, and stops a write when an error rule broke.
 */
import { renderGithubAnnotation, type Diagnostic } from '../config/index.js';
import { UserError } from '../errors.js';
import type { PolicyFinding } from '../plan/index.js';
import { hasPolicyErrors, loadPolicies, type PolicyRule } from '../policy/index.js';

export function policiesFrom(values: { readonly policy?: string[] | undefined }): Promise<PolicyRule[]> {
  return loadPolicies(values.policy ?? []);
}

/** A finding as a diagnostic at the object's entry. */
export function policyDiagnostic(f: PolicyFinding): Diagnostic {
  const at = f.location ?? { file: f.object, line: 1, column: 1 };
  return {
    severity: f.severity,
    file: at.file,
    line: at.line,
    column: at.column,
    path: f.object,
    message: `policy rule ${f.rule}: ${f.message}`,
  };
}

/** Annotations of the findings, under GitHub Actions only. */
export function printPolicyAnnotations(
  findings: readonly PolicyFinding[] | undefined,
  env: NodeJS.ProcessEnv,
  stderr: { write(text: string): unknown },
): void {
  if (env.GITHUB_ACTIONS !== 'true' || findings === undefined) return;
  for (const f of findings) stderr.write(`${renderGithubAnnotation(policyDiagnostic(f))}\n`);
}

/** Thrown before the first write when an error rule is broken. */
class PolicyBlocked extends UserError {
  constructor(findings: readonly PolicyFinding[]) {
    const errors = findings.filter((f) => f.severity === 'error');
    super(
      `${errors.length} policy ${errors.length === 1 ? 'rule is' : 'rules are'} broken: nothing was written`,
      { details: errors.map((f) => `  rule ${f.rule} on ${f.object}: ${f.message}`) },
    );
  }
}

/** Throws `PolicyBlocked` when an error rule is broken. */
export function assertPolicyAllows(findings: readonly PolicyFinding[] | undefined): void {
  if (findings !== undefined && hasPolicyErrors(findings)) throw new PolicyBlocked(findings);
}
