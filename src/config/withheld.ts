/**
 * Values read with `{env:}` or `{file:}` are withheld: no message repeats them, or any part of
 * them. A pull request's config can name any variable or file the CI job can read, and a message
 * that echoed what it found there (`"<the key>" is not an IPv4 address`) would publish it in the
 * log and in the annotation on the pull request. A problem with such a value names its source
 * instead: `the value of env NAME is not ...`, `the content of ca.pem (1234 bytes) is not ...`.
 */
import {
  checkFormat,
  formatExpectations,
  pemFormats,
  standardPemLabels,
  type FormatName,
} from '../resources/index.js';
import type { Diagnostic } from './diagnostic.js';

/** A value read from the environment or a file, and how messages name it. */
export interface Withheld {
  /** `the value of env NAME`, `the content of ca.pem (1234 bytes)`. */
  readonly subject: string;
  readonly value: string;
  /** The format of the field it was read into, when it has one. */
  readonly format?: FormatName;
}

/** Messages of the length checks, which say nothing of the value but its size. */
const sizeMessage = /^is \d+ (bytes|characters) long; the limit is \d+ (bytes|characters)$/;

/**
 * The message for a problem `message` found in a withheld value: what was expected, never what was
 * found. Format reasons quote the value, so only the format's expectation is kept; cross-field
 * rules name members, never values.
 */
export function withheldMessage(w: Withheld | undefined, message: string): string {
  if (w === undefined) return message;
  if (w.format !== undefined && checkFormat(w.format, w.value) === message) {
    const expected = `${w.subject} is not ${formatExpectations[w.format]}`;
    return pemReasonIsSafe(w.format, w.value, message) ? `${expected}: ${message}` : expected;
  }
  if (message === 'must not be empty') return `${w.subject} is empty`;
  if (sizeMessage.test(message)) return `${w.subject} ${message}`;
  return `${w.subject}: ${message}`;
}

/**
 * A PEM format's reason quotes block labels (and an `-----END label-----` line): safe to repeat
 * when every label in the value is a standard one, and nothing else is quoted.
 */
function pemReasonIsSafe(format: FormatName, value: string, reason: string): boolean {
  if (!pemFormats.has(format)) return false;
  const labels = [...value.matchAll(/-----(?:BEGIN|END) ([^\n]*?)-----/g)].map((m) => m[1] ?? '');
  if (!labels.every((label) => standardPemLabels.has(label))) return false;
  return !reason.replace(/"-----END [A-Z0-9 ]+-----"/g, '').includes('"');
}

/** Shorter values are everyday words and digits: replacing them would garble messages for nothing. */
const minScrubbedLength = 4;

function scrub(text: string, withheld: readonly Withheld[]): string {
  let out = text;
  for (const w of withheld) {
    if (w.value.length < minScrubbedLength) continue;
    const trimmed = w.value.trim();
    for (const v of new Set([w.value, trimmed])) {
      if (v.length >= minScrubbedLength) out = out.replaceAll(v, `(${w.subject})`);
    }
  }
  return out;
}

/**
 * The last line of defence: a diagnostic that still holds a withheld value anywhere (a message
 * some later check wrote from the value) has it replaced by its source.
 */
export function withoutWithheld(d: Diagnostic, withheld: readonly Withheld[]): Diagnostic {
  if (withheld.length === 0) return d;
  const { expected, found, hint } = d;
  return {
    ...d,
    message: scrub(d.message, withheld),
    path: scrub(d.path, withheld),
    ...(expected === undefined ? {} : { expected: scrub(expected, withheld) }),
    ...(found === undefined ? {} : { found: scrub(found, withheld) }),
    ...(hint === undefined ? {} : { hint: scrub(hint, withheld) }),
  };
}
