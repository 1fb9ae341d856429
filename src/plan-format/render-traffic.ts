/**
 * The plan's what-if (`trafficChanges`) in its text and markdown renderings: each changed TLS edge
 * with the sample connections whose outcome changes, or that none does.
 */
import { inert } from '../inert.js';
import { codeSpan, markdownText } from './markdown-text.js';
import type { TrafficEdgeChange, TrafficOutcome, TrafficOutcomeChange } from './types.js';

/** `allowed by rule office`, `unknown: conn.geo.country_code is not set`. */
function outcomeText(o: TrafficOutcome): string {
  return o.verdict === 'unknown' ? `unknown (${o.by})` : `${o.verdict} by ${o.by}`;
}

/** `203.0.113.7 (DE): allowed by rule office -> refused by rule deny-office`. */
function outcomeChangeText(c: TrafficOutcomeChange): string {
  const test = c.test === undefined ? '' : `test "${c.test}": `;
  return `${test}${c.connection}: ${outcomeText(c.before)} -> ${outcomeText(c.after)}`;
}

/** `derived samples, 6 evaluated (2 more left out)`. */
function samplesText(e: TrafficEdgeChange): string {
  const from = e.samples === 'tests' ? 'traffic tests' : 'derived samples';
  const left = e.leftOut === undefined ? '' : ` (${e.leftOut} more left out)`;
  return `${from}, ${e.evaluated} evaluated${left}`;
}

const noChange = 'no sample connection changes outcome';
const noSample = 'no sample connection to evaluate (its rules name no address: pass --traffic-tests)';

/** What is said of an edge none of whose samples changes outcome (or that was not evaluated). */
function quietText(e: TrafficEdgeChange): string {
  if (e.notEvaluated !== undefined) return `not evaluated: ${e.notEvaluated}`;
  return e.evaluated === 0 ? noSample : noChange;
}

/** The section's lines and a blank line after it; none when the plan changes no edge. */
export function trafficText(edges: readonly TrafficEdgeChange[] | undefined): string[] {
  if (edges === undefined || edges.length === 0) return [];
  return [
    'Traffic (sample connections through each changed TLS edge, live -> desired):',
    ...edges.flatMap((e) =>
      e.changes.length === 0
        ? [`  ${e.edge} (${samplesText(e)}): ${quietText(e)}`]
        : [`  ${e.edge} (${samplesText(e)}):`, ...e.changes.map((c) => `    ${inert(outcomeChangeText(c))}`)],
    ),
    '',
  ];
}

function cell(text: string): string {
  return markdownText(inert(text));
}

/** The first of `candidates` that fit in `budget` characters together, whole lines only. */
function fitting(candidates: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let size = 0;
  for (const line of candidates) {
    if (size + line.length + 1 > budget) break;
    kept.push(line);
    size += line.length + 1;
  }
  return kept;
}

const seeJson = 'see `trafficChanges` in the JSON plan';

/**
 * The "Traffic" section near the top of the PR comment, at most about `budget` characters: the
 * outcome changes get three quarters of it and the line per changed edge the rest; past either,
 * whole lines are left out and counted.
 */
export function trafficMarkdown(edges: readonly TrafficEdgeChange[] | undefined, budget: number): string[] {
  if (edges === undefined || edges.length === 0) return [];
  const lines = ['#### Traffic: sample connections whose outcome changes', ''];
  const changed = edges.filter((e) => e.changes.length > 0);
  const quiet = edges.filter((e) => e.changes.length === 0);
  if (changed.length > 0) {
    const rows = changed.flatMap((e) =>
      e.changes.map((c) => {
        const connection = c.test === undefined ? c.connection : `${c.connection}, test "${c.test}"`;
        return `| ${codeSpan(e.edge, true)} | ${cell(connection)} | ${cell(outcomeText(c.before))} | ${cell(outcomeText(c.after))} |`;
      }),
    );
    const kept = fitting(rows, (budget * 3) / 4);
    lines.push('| Edge | Connection | Live | Desired |', '|---|---|---|---|', ...kept, '');
    if (kept.length < rows.length)
      lines.push(`_${rows.length - kept.length} more outcome changes not listed: ${seeJson}._`, '');
  }
  const perEdge = [...changed, ...quiet].map(
    (e) =>
      `- ${codeSpan(e.edge)}: ${e.changes.length === 0 ? quietText(e) : `${e.changes.length} of ${e.evaluated} sample connections change outcome`} (${markdownText(samplesText(e))})`,
  );
  const listed = fitting(perEdge, budget / 4);
  lines.push(...listed);
  if (listed.length < perEdge.length)
    lines.push(`- _${perEdge.length - listed.length} more changed TLS edges not listed: ${seeJson}._`);
  lines.push('');
  return lines;
}
