/**
 * How a plan leaves the process, shared by `acctsync plan` and `acctsync sync --dry-run` so both
 * print exactly the same: the chosen rendering on stdout, the JSON plan saved with `--out`, the
 * markdown appended to `GITHUB_STEP_SUMMARY`, and the `--detailed-exitcode` convention.
 */
import { appendFile, writeFile } from 'node:fs/promises';
import type { GuardRefusal } from '../apply/index.js';
import { isSystemError, systemUserError, UsageError } from '../errors.js';
import { markdownLimit, renderJson, renderMarkdown, renderText, type Plan } from '../plan-format/index.js';
import { refusalMarkdown, refusalText, withRefusal } from './plan-refusal.js';
import { exitStatus } from './exit-codes.js';

/** The planner's options from the parsed `planningOptions` flags. */
export function planningSettings(values: {
  readonly adopt?: boolean | undefined;
  readonly 'no-delete'?: boolean | undefined;
  readonly scope?: string | undefined;
  readonly unprotect?: string[] | undefined;
}): { adopt: boolean; noDelete: boolean; scope?: string; unprotect?: string[] } {
  return {
    adopt: values.adopt ?? false,
    noDelete: values['no-delete'] ?? false,
    ...(values.unprotect === undefined ? {} : { unprotect: values.unprotect }),
    ...(values.scope === undefined ? {} : { scope: values.scope }),
  };
}

export type PlanFormat = 'text' | 'json' | 'markdown';

export function parsePlanFormat(value: string | undefined): PlanFormat {
  const format = value ?? 'text';
  if (format === 'text' || format === 'json' || format === 'markdown') return format;
  throw new UsageError(`--output ${format} is not a plan format: use text, json or markdown`);
}

interface PlanOutputSettings {
  readonly format: PlanFormat;
  /** `--out`: where the JSON plan is saved for `acctsync apply`. */
  readonly out?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  /** What sync would refuse in this plan (`syncRefusal`), shown with it. */
  readonly refusal?: GuardRefusal | undefined;
  /** The markdown's change graph (off with `--no-graph`). */
  readonly graph: boolean;
}

/** Colour only on a terminal, and never when `NO_COLOR` is set to anything non-empty. */
export function useColor(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  return isTTY === true && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb';
}

/** The plan in `format`. */
export function renderPlan(plan: Plan, format: 'text' | 'json', color: boolean): string {
  if (format === 'json') return renderJson(plan);
  return renderText(plan, { color });
}

/** Runs `write`, turning a file system refusal into one line naming `what` and `path`. */
export async function writeOrFail(what: string, path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`write ${what} to ${path}`, err) : err;
  }
}

/** The markdown with what sync would refuse above it, the whole within the comment budget. */
function markdownWith(plan: Plan, settings: PlanOutputSettings): string {
  const { refusal, graph } = settings;
  if (refusal === undefined) return renderMarkdown(plan, markdownLimit, { graph });
  const block = refusalMarkdown(refusal);
  return `${block}${renderMarkdown(plan, markdownLimit - block.length, { graph })}`;
}

/** The plan in `format`, with what sync would refuse in every rendering. */
function renderChecked(plan: Plan, settings: PlanOutputSettings): string {
  const { format, refusal } = settings;
  if (format === 'markdown') return markdownWith(plan, settings);
  if (format === 'json') return renderJson(withRefusal(plan, refusal));
  const rendered = renderPlan(plan, format, useColor(settings.env, settings.stdout.isTTY));
  return refusal === undefined ? rendered : `${rendered}${refusalText(refusal)}`;
}

/** Prints the plan, saves it with `--out`, appends the markdown to the GitHub step summary. */
export async function writePlanOutput(plan: Plan, settings: PlanOutputSettings): Promise<void> {
  const printed = renderChecked(plan, settings);
  settings.stdout.write(printed);
  const out = settings.out;
  if (out !== undefined) {
    const saved = settings.format === 'json' ? printed : renderJson(withRefusal(plan, settings.refusal));
    await writeOrFail('the plan', out, () => writeFile(out, saved, 'utf8'));
  }
  const summary = settings.env.GITHUB_STEP_SUMMARY;
  if (summary !== undefined && summary !== '') {
    const markdown = markdownWith(plan, settings);
    await writeOrFail('the step summary', summary, () => appendFile(summary, markdown, 'utf8'));
  }
}

/** True when the plan would change anything. */
export function hasChanges(plan: Plan): boolean {
  return plan.operations.length > 0;
}

/**
 * 0 without `--detailed-exitcode`; with it 0 for no changes, 2 for changes, 1 for a plan sync
 * would refuse (so the pull request is red before the merge, not main after it) and on errors.
 */
export function planExitCode(plan: Plan, detailed: boolean, refusal?: GuardRefusal): number {
  if (!detailed) return exitStatus.success;
  if (refusal !== undefined) return exitStatus.error;
  return hasChanges(plan) ? exitStatus.changes : exitStatus.success;
}
