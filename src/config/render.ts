/** Diagnostics as text: a code frame for people, a workflow command for GitHub Actions. */
import type { Diagnostic } from './diagnostic.js';
import type { SecretSpan } from './load.js';

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
 * `secrets` are the spans of secrets written in that text: the frame shows `*` in their place.
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
      const caretAt = Math.min(d.column - 1, maxLineWidth);
      out.push(`  ${' '.repeat(width)} | ${' '.repeat(Math.max(0, caretAt))}^`);
    }
  }
  if (d.expected !== undefined) out.push(`  expected: ${d.expected}`);
  if (d.found !== undefined) out.push(`  found: ${d.found}`);
  if (d.hint !== undefined) out.push(`  hint: ${d.hint}`);
  return out.join('\n');
}

/** The text with every secret span's characters (line breaks kept) replaced by `*`. */
function masked(text: string, secrets: readonly SecretSpan[]): string {
  if (secrets.length === 0) return text;
  // Spans are the YAML parser's UTF-16 offsets: mask code units so they line up.
  const units = text.split('');
  for (const { start, end } of secrets) {
    for (let i = start; i < end && i < units.length; i++) {
      if (units[i] !== '\n' && units[i] !== '\r') units[i] = '*';
    }
  }
  return units.join('');
}

/** Escapes a workflow command's message (data). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value: data escaping plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=...,line=...,col=...::message` (or `::warning`), escaped as GitHub requires. */
export function renderGithubAnnotation(d: Diagnostic): string {
  const props = [`file=${escapeProperty(d.file)}`, `line=${d.line}`, `col=${d.column}`].join(',');
  const hint = d.hint !== undefined ? ` (${d.hint})` : '';
  const where = d.path === '' ? '' : `${d.path}: `;
  return `::${d.severity} ${props}::${escapeData(`${where}${d.message}${hint}`)}`;
}
