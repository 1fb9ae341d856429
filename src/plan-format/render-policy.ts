/** Broken `--policy` rules in the plan's text and markdown renderings. */
import { counted } from '../count.js';
import { inert } from '../inert.js';
import { codeSpan, markdownText } from './markdown-text.js';
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

/** Untrusted text in a table cell (the rule's message, a file name), as every markdown renderer escapes it. */
function cell(text: string): string {
  return markdownText(inert(text));
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
        `| ${f.severity} | ${codeSpan(inert(f.rule), true)} | ${codeSpan(inert(f.object), true)} | ${cell(f.message)} | ${f.location === undefined ? '' : `${cell(f.location.file)}:${f.location.line}`} |`,
    ),
    '',
  ];
}
