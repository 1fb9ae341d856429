/**
 * A plan shown for review, the same way by `plan` and `sync --dry-run`: its rendering with what sync
 * would refuse, the policy rules' annotations, and the exit code a pipeline branches on.
 */
import type { RunResult } from '../pipeline/index.js';
import { hasPolicyErrors } from '../policy/index.js';
import { planExitCode, writePlanOutput, type PlanFormat } from './plan-output.js';
import { printPolicyAnnotations } from './policy.js';

interface ReviewSettings {
  readonly format: PlanFormat;
  /** `--out`: where the JSON plan is saved. */
  readonly out: string | undefined;
  readonly detailedExitcode: boolean;
  /** The markdown's change graph (off with `--no-graph`). */
  readonly graph: boolean;
}

/** Prints a run's plan for review and returns the exit code: 1 when a policy error rule is broken. */
export async function reviewPlan(run: RunResult, settings: ReviewSettings): Promise<number> {
  if (!('plan' in run)) throw new Error(`a run that plans ended ${run.status}`);
  const { plan, guardRefusal: refusal } = run;
  await writePlanOutput(plan, {
    format: settings.format,
    out: settings.out,
    env: process.env,
    stdout: process.stdout,
    refusal,
    graph: settings.graph,
  });
  printPolicyAnnotations(plan.policy, process.env, process.stderr);
  if (plan.policy !== undefined && hasPolicyErrors(plan.policy)) return 1;
  return planExitCode(plan, settings.detailedExitcode, refusal);
}
