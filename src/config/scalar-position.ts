/**
 * The line and column of a character inside a YAML scalar's value: the scalar's position plus the
 * offset inside it, across quoting, escapes, folded lines and block indentation. The value is
 * aligned with its source text character by character; what the source has and the value does not
 * (quotes, indentation, a block header, the backslash of an escape) is skipped.
 */
import { isScalar, type Scalar } from 'yaml';
import type { DocPath } from './diagnostic.js';
import { locate, type SourceFile } from './source.js';

/** The source length of the escape starting at `at` (after the backslash) in a double-quoted scalar. */
function escapeLength(text: string, at: number): number {
  const c = text[at];
  if (c === 'x') return 3;
  if (c === 'u') return 5;
  if (c === 'U') return 9;
  return 1;
}

/** The text offset of character `offset` of the scalar's value, or undefined when they do not align. */
function sourceOffset(text: string, node: Scalar, offset: number): number | undefined {
  const value = String(node.value);
  const [start, end] = node.range ?? [0, 0];
  let j = start;
  if (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') j += 1;
  else if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') j = text.indexOf('\n', start) + 1;
  for (let i = 0; i <= offset && i < value.length; i++) {
    let matched = false;
    while (j < end && !matched) {
      if (node.type === 'QUOTE_DOUBLE' && text[j] === '\\') {
        // An escape stands for one character of the value.
        if (i === offset) return j;
        j += 1 + escapeLength(text, j + 1);
        matched = true;
      } else if (text[j] === value[i]) {
        if (i === offset) return j;
        j += 1;
        matched = true;
      } else j += 1;
    }
    if (!matched) return undefined;
  }
  // Just past the value's end (an unexpected end of the expression): right after its last character.
  return offset >= value.length ? j : undefined;
}

/** Where character `offset` of the string at `path` was written; the scalar's start when unknown. */
export function locateInScalar(
  source: SourceFile,
  path: DocPath,
  offset: number,
): { line: number; column: number } {
  const node: unknown = source.doc.getIn(path, true);
  if (!isScalar(node) || typeof node.value !== 'string') return locate(source, path);
  const at = sourceOffset(source.text, node, offset);
  if (at === undefined) return locate(source, path);
  const pos = source.lineCounter.linePos(at);
  return { line: pos.line, column: pos.col };
}
