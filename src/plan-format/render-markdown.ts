/**
 * The pull-request comment: summary and destructive changes first, the change as a mermaid graph,
 * then every change in a diff block (destructive first, then by kind and name; long bodies folded
 * into `<details>` after it), cut at a line boundary with a note so the whole stays under GitHub's
 * comment limit.
 */
import { compare } from '../compare.js';
import { htmlText } from '../html-text.js';
import { inert } from '../inert.js';
import { codeSpan, fenceFor, markdownText } from './markdown-text.js';
import { policyMarkdown } from './render-policy.js';
import { trafficMarkdown } from './render-traffic.js';
import { mermaidDefaults, planMermaid } from './render-mermaid.js';
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
import type { KindRegistry } from '../resources/index.js';
import type { Plan } from './types.js';

/**
 * The markdown's budget. GitHub refuses comments longer than 65,536 characters; the 536 left over
 * are for what a workflow adds around the plan (the comment's marker, a heading, a link to the
 * run). docs/plan-output.md states the budget.
 */
export const markdownLimit = 65_000;

/** Bodies longer than this many lines are folded into a `<details>` block under the diff. */
const foldLines = 30;

function signOf(e: Entry): string {
  return e.symbol === '~' || e.symbol === '<=' || e.symbol === '~>' ? '!' : e.symbol === '+' ? '+' : '-';
}

function headOf(e: Entry): string {
  const why = whyOf(e);
  return `${e.symbol} ${shownKey(e)} (${e.title}${e.liveId === undefined ? '' : ` ${e.liveId}`})${why === undefined ? '' : `: ${why}`}`;
}

function diffLines(e: Entry, body: readonly string[]): string[] {
  const sign = signOf(e);
  const shown = body.length > foldLines ? [`# ${body.length} lines, in "${e.key}" below`] : body;
  return [`${sign} ${headOf(e)}`, ...shown.map((line) => `${sign}     ${line}`)];
}

/** An entry's header and whole body as diff lines. */
function wholeLines(e: Entry, body: readonly string[]): string[] {
  const sign = signOf(e);
  return [`${sign} ${headOf(e)}`, ...body.map((line) => `${sign}     ${line}`)];
}

function folded(e: Entry, body: readonly string[]): string {
  const lines = wholeLines(e, body);
  const fence = fenceFor(lines);
  return [
    `<details><summary><code>${htmlText(`${e.symbol} ${shownKey(e)}`)}</code> (${e.title})</summary>`,
    '',
    `${fence}diff`,
    ...lines,
    fence,
    '',
    '</details>',
    '',
  ].join('\n');
}

/** Exact counts, per action and kind, of destructive entries the table leaves out, and where to see them. */
function notListed(rest: readonly Entry[]): string[] {
  const counts = new Map<string, number>();
  for (const e of rest) counts.set(`${e.verb} ${e.title}`, (counts.get(`${e.verb} ${e.title}`) ?? 0) + 1);
  const parts = [...counts].sort(([a], [b]) => compare(a, b)).map(([what, n]) => `${n} × ${what}`);
  return [`_${rest.length} more destructive changes not listed: ${parts.join(', ')}. ${fullPlanHint}_`];
}

const fullPlanHint = 'Run `acctsync plan --out plan.json` (or `--output json`) for the full plan.';

/**
 * Drift in a section of its own before the config's changes, at most `budget` characters: past
 * it, whole lines are left out with a note.
 */
function driftSection(
  drift: readonly Entry[],
  bodies: ReadonlyMap<Entry, readonly string[]>,
  budget: number,
): string[] {
  if (drift.length === 0) return [];
  const lines = drift.flatMap((e) => wholeLines(e, bodies.get(e) ?? []));
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > budget) break;
    kept.push(line);
    size += line.length + 1;
  }
  const fence = fenceFor(kept);
  const cut =
    kept.length < lines.length
      ? [`_Truncated: ${lines.length - kept.length} of ${lines.length} lines left out. ${fullPlanHint}_`, '']
      : [];
  return [`#### ${driftHeading}`, '', `${fence}diff`, ...kept, fence, '', ...cut];
}

/**
 * The graph's share of the comment: the text keeps the larger part (a 600-object first sync is
 * drawn by kind rather than crowding out the changes).
 */
const graphShare = 0.4;

const graphKey =
  '_Arrows go from what is needed first to what needs it, in the order the applier runs them. `+` create, `~` update, `-/+` replace, `~>` rename, `-` delete, `<=` adopt; orange: changed outside acctsync; grey: unchanged objects the changes reference; dashed: a reference no operation waits for._';

/** The change as a mermaid flowchart under its heading, within `limit` characters' share. */
function graphSection(plan: Plan, limit: number, kinds: KindRegistry | undefined): string[] {
  if (plan.operations.length === 0) return [];
  const maxChars = Math.min(mermaidDefaults.maxChars, Math.floor(limit * graphShare));
  const budget = { maxChars, maxEdges: mermaidDefaults.maxEdges };
  const diagram = planMermaid(plan, budget, kinds);
  const size = `${diagram.objects} objects, ${diagram.edges} edges`;
  const whole = 'Run `acctsync graph --plan` for the whole graph.';
  if (diagram.text === undefined)
    return [
      '#### Change graph',
      '',
      `_Left out: the graph (${size}) does not fit in ${maxChars} characters and ${budget.maxEdges} edges even by kind. ${whole}_`,
      '',
    ];
  const note =
    diagram.detail === 'kinds'
      ? [
          `_By kind and action: one node per object (${size}) would pass ${maxChars} characters or ${budget.maxEdges} edges. ${whole}_`,
          '',
        ]
      : [];
  return ['#### Change graph', '', '```mermaid', diagram.text.trimEnd(), '```', '', graphKey, '', ...note];
}

interface MarkdownOptions {
  /** The change as a mermaid graph (`--no-graph` turns it off): on by default. */
  readonly graph?: boolean;
  /** The kinds the plan's objects are of: the built-in ones unless given. */
  readonly kinds?: KindRegistry;
}

export function renderMarkdown(plan: Plan, limit = markdownLimit, options: MarkdownOptions = {}): string {
  const graph = options.graph === false ? [] : graphSection(plan, limit, options.kinds);
  // What the text may take besides the graph; the change list's cut below counts the graph in `head`.
  const textLimit = limit - graph.join('\n').length - 1;
  const { kinds } = options;
  // Destructive changes first, each group by kind then name.
  const all = entriesOf(plan, kinds);
  const entries = [...all.filter((e) => e.destructive), ...all.filter((e) => !e.destructive)];
  const bodyLines = bodyOf(plan, kinds);
  const bodies = new Map(entries.map((e) => [e, bodyLines(e)]));
  const head: string[] = [
    plan.environment === undefined
      ? `### acctsync plan: scope ${codeSpan(inert(plan.scope))}`
      : `### acctsync plan: environment ${codeSpan(inert(plan.environment))}, scope ${codeSpan(inert(plan.scope))}`,
    '',
    ...policyMarkdown(plan.policy),
    `**${summaryLine(plan, kinds)}**`,
    '',
    ...trafficMarkdown(plan.trafficChanges, textLimit / 4),
  ];
  const destructive = entries.filter((e) => e.destructive);
  if (destructive.length > 0) {
    head.push('#### Destructive changes', '', '| | Object | Kind | Id | Why |', '|---|---|---|---|---|');
    // The table gets at most half the budget so the change list keeps room; the rest is counted.
    let size = head.join('\n').length;
    let listed = 0;
    for (const e of destructive) {
      const id = e.liveId === undefined ? '' : codeSpan(e.liveId, true);
      const row = `| \`${e.symbol}\` | ${codeSpan(e.key, true)} | ${e.title} | ${id} | ${markdownText(whyOf(e) ?? '')} |`;
      if (size + row.length + 1 > textLimit / 2) break;
      head.push(row);
      size += row.length + 1;
      listed += 1;
    }
    if (listed < destructive.length) head.push('', ...notListed(destructive.slice(listed)));
    head.push('');
  }
  if (plan.notes.length > 0)
    head.push('#### Notes', '', ...plan.notes.map((n) => `- ${markdownText(inert(n))}`), '');
  const unmanaged = unmanagedLine(plan, kinds);
  // Only counts and kind titles: nothing from the account to escape, and its code spans stay code.
  if (unmanaged !== undefined) head.push(unmanaged, '');
  const [title, ...observedRaw] = observedLines(plan, kinds);
  const observed = observedRaw.map(inert);
  if (title !== undefined)
    head.push(
      `#### ${title.replace(/:$/, '')}`,
      '',
      `${fenceFor(observed)}diff`,
      ...observed,
      fenceFor(observed),
      '',
    );
  head.push(...graph);
  const drift = entries.filter(isDrift);
  head.push(...driftSection(drift, bodies, textLimit / 4));
  const config = entries.filter((e) => !isDrift(e));
  if (config.length === 0) return `${head.join('\n')}\n`;

  const body = config.flatMap((e) => diffLines(e, bodies.get(e) ?? []));
  const fence = fenceFor(body);
  const open = [drift.length > 0 ? '#### Changes from the config' : '#### All changes', '', `${fence}diff`];
  const close = [fence, ''];
  const large = config.filter((e) => (bodies.get(e) ?? []).length > foldLines);
  const details = large.map((e) => folded(e, bodies.get(e) ?? []));
  const full = [...head, ...open, ...body, ...close, ...details].join('\n');
  if (full.length <= limit) return full;

  // Keep whole lines while the note and the closing fence still fit.
  const fixed = [...head, ...open].join('\n').length + close.join('\n').length + 400;
  const kept: string[] = [];
  let size = fixed;
  for (const line of body) {
    if (size + line.length + 1 > limit) break;
    kept.push(line);
    size += line.length + 1;
  }
  const note = `_Truncated: ${body.length - kept.length} of ${body.length} lines left out${details.length > 0 ? ` (with the ${details.length} folded changes)` : ''} to stay under ${limit} characters. ${fullPlanHint}_`;
  return [...head, ...open, ...kept, fence, '', note, ''].join('\n');
}
