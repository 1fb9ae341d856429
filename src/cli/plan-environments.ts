/**
 * `acctsync plan --all-envs`: one pull request's effect on every environment at once. Each
 * environment is loaded and planned against its own account (its own variables, or its own
 * embedded emulator state), and the plans are rendered as one report.
 */
import { appendFile } from 'node:fs/promises';
import { loadDesiredState } from '../config/index.js';
import { UsageError } from '../errors.js';
import { htmlText } from '../html-text.js';
import { inert } from '../inert.js';
import {
  codeSpan,
  markdownLimit,
  renderJson,
  renderMarkdown,
  renderText,
  type Plan,
} from '../plan-format/index.js';
import type { GuardRefusal } from '../apply/index.js';
import type { ConnectionFlags } from './connection.js';
import { hasChanges, useColor, writeOrFail, type PlanFormat } from './plan-output.js';
import { planRequest, runCommand } from './planned.js';
import { refusalMarkdown, refusalText, withRefusal } from './plan-refusal.js';
import { printPolicyAnnotations } from './policy.js';
import { hasPolicyErrors } from '../policy/index.js';
import { exitStatus } from './exit-codes.js';

interface EnvironmentPlan {
  readonly name: string;
  /** With what sync would refuse in it (`syncRefusal`), as `plan --env NAME` shows it. */
  readonly plan: Plan;
  readonly refusal: GuardRefusal | undefined;
}

interface Flags extends ConnectionFlags {
  readonly adopt?: boolean | undefined;
  readonly 'no-delete'?: boolean | undefined;
  readonly scope?: string | undefined;
  readonly unprotect?: string[] | undefined;
  readonly env?: string | undefined;
  readonly out?: string | undefined;
  readonly 'detailed-exitcode'?: boolean | undefined;
  readonly policy?: string[] | undefined;
  readonly 'traffic-tests'?: string[] | undefined;
  readonly 'files-root'?: string[] | undefined;
  readonly 'no-graph'?: boolean | undefined;
}

/** The declared environments' plans, in declaration order. */
async function planEnvironments(paths: readonly string[], flags: Flags): Promise<EnvironmentPlan[]> {
  const request = await planRequest(flags, paths);
  const probe = await loadDesiredState([...paths], { filesRoot: request.filesRoot });
  if (probe.environments.length === 0) {
    throw new UsageError('--all-envs: this config declares no environments', {
      details: ['Declare them under environments: (docs/environments.md), or plan without --all-envs.'],
    });
  }
  const plans: EnvironmentPlan[] = [];
  for (const name of probe.environments) {
    const { result } = await runCommand({ ...request, environment: name });
    if (!('plan' in result)) throw new Error(`a run that plans ended ${result.status}`);
    const { plan, guardRefusal: refusal } = result;
    plans.push({ name, plan: withRefusal(plan, refusal), refusal });
  }
  return plans;
}

function counts(plan: Plan): string {
  const { create, update, replace, delete: del, adopt } = plan.summary;
  return `${create} | ${update} | ${replace} | ${del} | ${adopt}`;
}

/** One report for every environment, in `format`. Markdown stays under the comment limit. */
function renderEnvironments(
  plans: readonly EnvironmentPlan[],
  format: PlanFormat,
  options: { readonly color: boolean; readonly graph: boolean },
): string {
  if (format === 'json') {
    const body = plans.map((p) => `{"name":${JSON.stringify(p.name)},"plan":${renderJson(p.plan).trim()}}`);
    return `{"formatVersion":1,"environments":[${body.join(',')}]}\n`;
  }
  if (format === 'text') {
    return plans
      .map(
        (p) =>
          `=== environment ${inert(p.name)} (scope ${inert(p.plan.scope)}) ===\n${renderText(p.plan, { color: options.color })}${p.refusal === undefined ? '' : refusalText(p.refusal)}`,
      )
      .join('\n');
  }
  const head = [
    `## acctsync plan: ${plans.length} environments`,
    '',
    '| Environment | Create | Update | Replace | Delete | Adopt |',
    '|---|---|---|---|---|---|',
    ...plans.map((p) => `| ${codeSpan(inert(p.name), true)} | ${counts(p.plan)} |`),
    '',
  ].join('\n');
  // Each environment's section gets an equal share of what the comment limit leaves.
  const share = Math.floor((markdownLimit - head.length - 200) / plans.length) - 100;
  const sections = plans.map((p) => {
    const refused = p.refusal === undefined ? '' : refusalMarkdown(p.refusal);
    return `<details${hasChanges(p.plan) ? ' open' : ''}><summary>Environment <code>${htmlText(inert(p.name))}</code></summary>\n\n${refused}${renderMarkdown(p.plan, share - refused.length, { graph: options.graph })}\n</details>\n`;
  });
  return `${head}\n${sections.join('\n')}`;
}

/** `plan --all-envs`: prints the report; 2 with `--detailed-exitcode` when any environment changes. */
export async function planEveryEnvironment(
  paths: readonly string[],
  flags: Flags,
  format: PlanFormat,
): Promise<number> {
  if (flags.out !== undefined) {
    throw new UsageError("--out saves one environment's plan for apply: use --env NAME with --out");
  }
  if (flags.env !== undefined) throw new UsageError('--all-envs plans every environment: leave out --env');
  const plans = await planEnvironments(paths, flags);
  const graph = flags['no-graph'] !== true;
  process.stdout.write(
    renderEnvironments(plans, format, { color: useColor(process.env, process.stdout.isTTY), graph }),
  );
  const summary = process.env.GITHUB_STEP_SUMMARY;
  if (summary !== undefined && summary !== '') {
    const markdown = renderEnvironments(plans, 'markdown', { color: false, graph });
    await writeOrFail('the step summary', summary, () => appendFile(summary, markdown, 'utf8'));
  }
  for (const p of plans) printPolicyAnnotations(p.plan.policy, process.env, process.stderr);
  if (plans.some((p) => p.plan.policy !== undefined && hasPolicyErrors(p.plan.policy)))
    return exitStatus.error;
  if (flags['detailed-exitcode'] !== true) return exitStatus.success;
  if (plans.some((p) => p.refusal !== undefined)) return exitStatus.error;
  return plans.some((p) => hasChanges(p.plan)) ? exitStatus.changes : exitStatus.success;
}
