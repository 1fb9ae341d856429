/**
 * The terminal rendering: Terraform-like `+ ~ - -/+ <= ~>` headers grouped by kind and name, each with its
 * tree of changes (never truncated), a summary.
 */
import { inert } from '../inert.js';
import { policyText } from './render-policy.js';
import { trafficText } from './render-traffic.js';
import {
  bodyOf,
  driftHeading,
  entriesOf,
  isDrift,
  observedLines,
  shownKey,
  summaryLine,
  unmanagedLine,
  whyOf,
  type Entry,
} from './render-common.js';
import type { Plan } from './types.js';

interface TextOptions {
  /** ANSI colours; the CLI turns them on for a TTY unless `NO_COLOR` is set. */
  readonly color: boolean;
}

const colors: Record<Entry['symbol'], number> = { '+': 32, '~': 33, '-': 31, '-/+': 35, '<=': 36, '~>': 33 };

export function renderText(plan: Plan, options: TextOptions): string {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[0m` : text);
  const environment = plan.environment === undefined ? '' : ` (environment ${inert(plan.environment)})`;
  const lines: string[] = [`acctsync plan for scope ${inert(plan.scope)}${environment}`, ''];
  const entries = entriesOf(plan);
  const body = bodyOf(plan);
  const show = (e: Entry): void => {
    const where = e.liveId === undefined ? e.title : `${e.title} ${e.liveId}`;
    const reason = whyOf(e);
    const why = reason === undefined ? '' : `  (${reason})`;
    lines.push(`${paint(colors[e.symbol], e.symbol.padStart(3))} ${bold(shownKey(e))}  ${where}${why}`);
    for (const line of body(e)) lines.push(`      ${line}`);
  };
  // Drift first, under its own heading: a reviewer tells it from the config's change.
  const drift = entries.filter(isDrift);
  const config = entries.filter((e) => !isDrift(e));
  if (drift.length > 0) {
    lines.push(`${driftHeading} (the plan puts it back):`);
    drift.forEach(show);
    lines.push('');
    if (config.length > 0) lines.push('Changes from the config:');
  }
  config.forEach(show);
  if (config.length > 0) lines.push('');
  const observed = observedLines(plan).map(inert);
  if (observed.length > 0) lines.push(...observed, '');
  for (const note of plan.notes) lines.push(`Note: ${inert(note)}`);
  if (plan.notes.length > 0) lines.push('');
  const unmanaged = unmanagedLine(plan);
  if (unmanaged !== undefined) lines.push(unmanaged, '');
  lines.push(...trafficText(plan.trafficChanges));
  lines.push(...policyText(plan.policy));
  lines.push(bold(summaryLine(plan)));
  return `${lines.join('\n')}\n`;
}
