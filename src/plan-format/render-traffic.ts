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

/** The section's lines and a blank line after it; none when the plan changes no edge. */
export function trafficText(edges: readonly TrafficEdgeChange[] | undefined): string[] {
  if (edges === undefined || edges.length === 0) return [];
  return [
    'Traffic (sample connections through each changed TLS edge, live -> desired):',
    ...edges.flatMap((e) =>
      e.changes.length === 0
        ? [`  ${e.edge} (${samplesText(e)}): ${noChange}`]
        : [`  ${e.edge} (${samplesText(e)}):`, ...e.changes.map((c) => `    ${inert(outcomeChangeText(c))}`)],
    ),
    '',
  ];
}

function cell(text: string): string {
  return markdownText(inert(text));
}

/**
 * The "Traffic" section near the top of the PR comment, at most `budget` characters: past it,
 * whole rows are left out and counted.
 */
export function trafficMarkdown(edges: readonly TrafficEdgeChange[] | undefined, budget: number): string[] {
  if (edges === undefined || edges.length === 0) return [];
  const lines = ['#### Traffic: sample connections whose outcome changes', ''];
  const quiet = edges.filter((e) => e.changes.length === 0);
  const changed = edges.filter((e) => e.changes.length > 0);
  if (changed.length > 0) {
    lines.push('| Edge | Connection | Live | Desired |', '|---|---|---|---|');
    const rows = changed.flatMap((e) =>
      e.changes.map((c) => {
        const connection = c.test === undefined ? c.connection : `${c.connection}, test "${c.test}"`;
        return `| ${codeSpan(e.edge, true)} | ${cell(connection)} | ${cell(outcomeText(c.before))} | ${cell(outcomeText(c.after))} |`;
      }),
    );
    let size = lines.join('\n').length;
    let kept = 0;
    for (const row of rows) {
      if (size + row.length + 1 > budget) break;
      lines.push(row);
      size += row.length + 1;
      kept += 1;
    }
    lines.push('');
    if (kept < rows.length)
      lines.push(
        `_${rows.length - kept} more outcome changes not listed: see \`trafficChanges\` in the JSON plan._`,
        '',
      );
  }
  for (const e of [...changed, ...quiet])
    lines.push(
      `- ${codeSpan(e.edge)}: ${e.changes.length === 0 ? noChange : `${e.changes.length} of ${e.evaluated} sample connections change outcome`} (${markdownText(samplesText(e))})`,
    );
  lines.push('');
  return lines;
}
