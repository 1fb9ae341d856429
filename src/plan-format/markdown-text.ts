/**
 * Untrusted text placed in markdown for a pull-request comment: names and ids in code spans whose
 * delimiters no backtick run inside can match, values in fences longer than any backtick run they
 * hold, everything else backslash-escaped, so a value can never close its block, start a link or
 * an image, inject HTML or mention someone. Input is already inert for a terminal (`inert`).
 */

/** The longest run of backticks in `text`. */
function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
}

/** A code fence (` ``` ` or longer) that none of `lines` can close. */
export function fenceFor(lines: readonly string[]): string {
  return '`'.repeat(Math.max(3, ...lines.map((l) => longestBacktickRun(l) + 1)));
}

/** `text` as an inline code span; in a table cell its pipes are escaped as GFM tables require. */
export function codeSpan(text: string, inTable = false): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  // A span that starts or ends with a backtick needs a space between it and the delimiter.
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  const body = inTable ? text.replace(/\|/g, '\\|') : text;
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/**
 * Prose with untrusted parts, inside a line (a table cell, a list item): every character that
 * starts emphasis, code, a link or image, HTML, an entity, a strikethrough, a cell or a mention is
 * escaped. (Characters that only mean something at the start of a line cannot reach one.)
 */
export function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>!|~&@]/g, '\\$&').replace(/\r?\n/g, ' ');
}
