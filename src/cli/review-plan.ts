/**
 * A plan shown for review, the same way by `plan` and `sync --dry-run`: its rendering with what sync
 * would refuse, the policy rules' annotations, and the exit code a pipeline branches on.
 */
import type { Plan } from '../plan/index.js';
import { hasPolicyErrors } from '../policy/index.js';
import type { DesiredState } from '../resources/index.js';
import { planExitCode, writePlanOutput, type PlanFormat } from './plan-output.js';
import { syncRefusal } from './plan-refusal.js';
import { printPolicyAnnotations } from './policy.js';

interface ReviewSettings {
  readonly format: PlanFormat;
  /** `--out`: where the JSON plan is saved. */
  readonly out: string | undefined;
  readonly detailedExitcode: boolean;
  /** `sync --force`: the guards would not refuse. */
  readonly force?: boolean;
}

/** Prints `plan` for review and returns the exit code: 1 when a policy error rule is broken. */
export async function reviewPlan(
  plan: Plan,
  desired: DesiredState,
  settings: ReviewSettings,
): Promise<number> {
  const refusal = syncRefusal(plan, desired, settings.force);
  await writePlanOutput(plan, {
    format: settings.format,
    out: settings.out,
    env: process.env,
    stdout: process.stdout,
    refusal,
  });
  printPolicyAnnotations(plan.policy, process.env, process.stderr);
  if (plan.policy !== undefined && hasPolicyErrors(plan.policy)) return 1;
  return planExitCode(plan, settings.detailedExitcode, refusal);
}
