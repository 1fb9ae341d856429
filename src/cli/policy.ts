/**
 * `--policy PATH` on validate, plan, sync, apply and watch: loads the rules before anything is
 * contacted, turns broken object rules into the config's diagnostics (validate), prints broken
 * rules as GitHub annotations on the object's line (the run itself refuses a write an error rule
 * stops: `policy/refusal.ts`).
 */
import { renderGithubAnnotation, type Diagnostic } from '../config/index.js';
import type { PolicyFinding } from '../plan-format/index.js';
import { loadPolicies, type PolicyRule } from '../policy/index.js';
import { builtinKinds } from '../resources/index.js';

/** The `--policy` rules, about the built-in kinds: the ones a command's config can hold. */
export function policiesFrom(values: { readonly policy?: string[] | undefined }): Promise<PolicyRule[]> {
  return loadPolicies(values.policy ?? [], builtinKinds);
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
