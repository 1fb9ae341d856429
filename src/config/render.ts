/** Diagnostics as text: a code frame for people, a workflow command for GitHub Actions. */
import { secretStars } from '../sensitive-mask.js';
import { inert, inertLine } from '../inert.js';
import type { Diagnostic } from './diagnostic.js';
import type { SecretSpan } from './secret-spans.js';

/** Lines of context shown above the offending line. */
const contextLines = 2;
/** Long lines (a PEM on one line, minified JSON) are cut so a frame stays readable. */
const maxLineWidth = 160;

function clip(line: string): string {
  return line.length > maxLineWidth ? `${line.slice(0, maxLineWidth)}…` : line;
}

/**
 * One diagnostic as `file:line:col: severity: message`, a code frame of the source around the
 * line with a caret under the column, then what was expected and found, and the hint.
 * `sourceText` may be undefined when the file cannot be shown (binary, too large, missing).
 * `secrets` are the spans of secrets written in that text: the frame shows `secretStars` in their place.
 */
export function renderDiagnostic(
  d: Diagnostic,
  sourceText?: string,
  secrets: readonly SecretSpan[] = [],
): string {
  const where = d.path === '' ? '' : ` (at ${d.path})`;
  const out = [`${d.file}:${d.line}:${d.column}: ${d.severity}: ${d.message}${where}`];
  if (sourceText !== undefined && sourceText !== '') {
    const lines = masked(sourceText, secrets).split(/\r?\n/);
    const first = Math.max(1, d.line - contextLines);
    const last = Math.min(lines.length, d.line);
    const width = String(last).length;
    for (let n = first; n <= last; n++) {
      const marker = n === d.line ? '>' : ' ';
      out.push(`${marker} ${String(n).padStart(width)} | ${clip(lines[n - 1] ?? '')}`);
    }
    if (d.line <= lines.length) {
      const caretAt = Math.min(maskedColumn(sourceText, secrets, d.line, d.column), maxLineWidth);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, caretAt))}^`);
    }
  }
  if (d.expected !== undefined) out.push(`  expected: ${d.expected}`);
  if (d.found !== undefined) out.push(`  found: ${d.found}`);
  if (d.hint !== undefined) out.push(`  hint: ${d.hint}`);
  // The source lines, the values found and the names in messages are the config author's.
  return out.map(inertLine).join('\n');
}

/** The text with each line of every secret span replaced by `secretStars` (line breaks kept). */
function masked(text: string, secrets: readonly SecretSpan[]): string {
  // Spans are the YAML parser's UTF-16 offsets, as are string indices.
  let out = '';
  let at = 0;
  for (const { start, end } of [...secrets].sort((a, b) => a.start - b.start)) {
    if (start < at) continue;
    out += text.slice(at, start);
    out += text
      .slice(start, end)
      .split(/(\r?\n)/)
      .map((part, i) => (i % 2 === 1 || part === '' ? part : secretStars))
      .join('');
    at = end;
  }
  return out + text.slice(at);
}

/** The 0-based column, in the masked line, of `column` (1-based) of line `line` in the source. */
function maskedColumn(text: string, secrets: readonly SecretSpan[], line: number, column: number): number {
  const lineStart = (source: string): number => {
    let offset = 0;
    for (let n = 1; n < line; n++) offset = source.indexOf('\n', offset) + 1;
    return offset;
  };
  const before = lineStart(text) + column - 1;
  const maskedBefore = masked(text.slice(0, before), secrets);
  return maskedBefore.length - lineStart(maskedBefore);
}

/** Escapes a workflow command's message (data). */
function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value: data escaping plus `:` and `,`. */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=...,line=...,col=...::message` (or `::warning`), escaped as GitHub requires. */
export function renderGithubAnnotation(d: Diagnostic): string {
  const props = [`file=${escapeProperty(inert(d.file))}`, `line=${d.line}`, `col=${d.column}`].join(',');
  const hint = d.hint !== undefined ? ` (${d.hint})` : '';
  const where = d.path === '' ? '' : `${d.path}: `;
  // Line breaks stay the annotation's own (%0A); every other control is shown escaped.
  const text = `${where}${d.message}${hint}`
    .split('\n')
    .map((line) => line.split('\r').map(inert).join('\r'))
    .join('\n');
  return `::${d.severity} ${props}::${escapeData(text)}`;
}
