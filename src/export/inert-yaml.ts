/**
 * YAML text of an export that stays exact (it loads back to the same values) and inert: written to
 * a terminal or a CI log (`export` without `--out`), no value can move the cursor, reorder text or
 * give a runner a workflow command. A string that holds such characters, or a line shaped like a
 * workflow command, is written double-quoted on one line with those characters as escapes.
 */
import { visit, type Document } from 'yaml';
import { inert, inertQuoted } from '../inert.js';

/** What {@link inert} changes, plus a line break that could start a command-shaped line. */
function needsEscapes(value: string): boolean {
  return inert(value) !== value || /^\s*::/m.test(value);
}

/** The document as text, every string that needs it double-quoted with escapes. */
export function inertYaml(doc: Document): string {
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && needsEscapes(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // One line per string: a line break inside it stays `\n` rather than starting a new line.
  const text = doc.toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER });
  // What the library leaves raw inside double quotes (C1 controls, bidi marks, `##[`).
  return inertQuoted(text);
}
