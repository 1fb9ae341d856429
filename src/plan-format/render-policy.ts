/** Broken `--policy` rules in the plan's text and markdown renderings. */
import { counted } from '../count.js';
import type { PolicyFinding } from './types.js';

function where(f: PolicyFinding): string {
  return f.location === undefined ? '' : ` (${f.location.file}:${f.location.line})`;
}

/** `error: rule NAME on OBJECT: MESSAGE (file:line)` lines, then a blank line; none without findings. */
export function policyText(findings: readonly PolicyFinding[] | undefined): string[] {
  if (findings === undefined || findings.length === 0) return [];
  return [
    'Policy:',
    ...findings.map((f) => `  ${f.severity}: rule ${f.rule} on ${f.object}: ${f.message}${where(f)}`),
    '',
  ];
}

/** Backticks and pipes would break a table cell or a code span. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/`/g, "'").replace(/\r?\n/g, ' ');
}

/** The "Policy" section at the top of the PR comment; none without findings. */
export function policyMarkdown(findings: readonly PolicyFinding[] | undefined): string[] {
  if (findings === undefined || findings.length === 0) return [];
  const errors = findings.filter((f) => f.severity === 'error').length;
  const verdict =
    errors > 0
      ? `**${counted(errors, 'policy error', 'policy errors')}: this plan will not be applied.**`
      : '**Policy warnings only: the plan may be applied.**';
  return [
    '#### Policy',
    '',
    verdict,
    '',
    '| Severity | Rule | Object | Message | Where |',
    '|---|---|---|---|---|',
    ...findings.map(
      (f) =>
        `| ${f.severity} | \`${cell(f.rule)}\` | \`${cell(f.object)}\` | ${cell(f.message)} | ${f.location === undefined ? '' : `${cell(f.location.file)}:${f.location.line}`} |`,
    ),
    '',
  ];
}
