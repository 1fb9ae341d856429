/**
 * Text from the account or the config (a description set in the dashboard, a name in a pull
 * request, an API error message) made inert for a terminal or a CI log. Whoever can write such a
 * value must not be able to clear the screen, draw a hyperlink, overwrite a line with a fake
 * summary, reorder text with bidirectional overrides, or give a CI runner a workflow command.
 * JSON and YAML renderings escape by their own rules and do not come through here.
 */

/**
 * What a terminal or a log viewer acts on: C0 controls, DEL, C1 controls (`\u009b` is a CSI on
 * its own), the Arabic letter mark, LRM/RLM, line and paragraph separators, and the bidirectional
 * embeddings, overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is this module's job
const actionable = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const named: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escaped(char: string): string {
  return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * GitHub's runner obeys `##[name ...]` anywhere in a line (its first command syntax) and Azure
 * Pipelines `##vso[...]`: the second `#` is shown escaped.
 */
const bracketCommand = /#(?=#[a-z]*\[)/gi;

/** GitHub's runner obeys a line that starts, after blanks, with `::name ...::`. */
const lineCommand = /^(\s*):(?=:.*::)/;

/** One untrusted value for a place inside one line: every control, line breaks included, escaped. */
export function inert(value: string): string {
  return value.replace(actionable, escaped).replace(bracketCommand, '\\u0023');
}

/**
 * One line of an untrusted multi-line value shown as a block (a description under `|`): as
 * {@link inert}, and a line shaped like a workflow command loses its first colon.
 */
export function inertLine(line: string): string {
  return inert(line).replace(lineCommand, '$1\\u003a');
}

/**
 * Untrusted text of several lines (an error message with its details, a code frame): its line
 * breaks kept, each line as {@link inertLine}.
 */
export function inertLines(text: string): string {
  return text.split('\n').map(inertLine).join('\n');
}

/**
 * JSON (or YAML whose strings holding such characters are double-quoted) kept exact and made
 * inert: JSON leaves C1 controls, DEL and bidi marks raw inside strings, and `##[` is a command
 * anywhere in a line; all become `\uXXXX` escapes, which parse back to the same strings (they
 * can only occur inside quoted strings there).
 */
export function inertQuoted(text: string): string {
  return text.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|#(?=#[a-z]*\[)/gi,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
