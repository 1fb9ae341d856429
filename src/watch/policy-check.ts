/**
 * The daemon's `--policy` check: the rule files are read again on every reconcile (a rule edited
 * in git takes effect like the config does), and a broken error rule stops the reconcile before
 * any write, as it stops `sync`.
 */
import type { Logger } from 'pino';
import { renderDiagnostic } from '../config/index.js';
import type { Plan } from '../plan/index.js';
import { hasPolicyErrors, loadPolicies, PolicyFileError, policyFindings } from '../policy/index.js';
import type { DesiredState } from '../resources/index.js';
import type { ReconcileResult } from './types.js';

interface PolicyCheck {
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly environment: string;
}

/** Why the reconcile must stop for its policy, or undefined when it may go on (warnings logged). */
export async function policyRefusal(
  check: PolicyCheck,
  desired: DesiredState,
  plan: Plan,
  log: Logger,
): Promise<ReconcileResult | undefined> {
  if (check.paths.length === 0) return undefined;
  const planned = plan.operations.length;
  let rules;
  try {
    rules = await loadPolicies(check.paths, check.cwd);
  } catch (err) {
    if (!(err instanceof PolicyFileError)) throw err;
    const details = err.diagnostics.map((d) => renderDiagnostic(d));
    return {
      status: 'invalid_config',
      planned,
      applied: [],
      reason: `${err.message}; nothing was changed`,
      details,
    };
  }
  const findings = await policyFindings(rules, { state: desired, env: check.environment, plan });
  for (const f of findings.filter((x) => x.severity === 'warning'))
    log.warn({ policy: f }, `policy rule ${f.rule} on ${f.object}: ${f.message}`);
  if (!hasPolicyErrors(findings)) return undefined;
  const errors = findings.filter((f) => f.severity === 'error');
  return {
    status: 'refused',
    planned,
    applied: [],
    reason: `${errors.length} policy ${errors.length === 1 ? 'rule is' : 'rules are'} broken: nothing was written`,
    details: errors.map((f) => `rule ${f.rule} on ${f.object}: ${f.message}`),
  };
}
