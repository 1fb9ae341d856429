/**
 * HTML built with every interpolated value escaped: what the status page shows comes from the
 * config, the account (a description set in the dashboard) and the service's answers, anyone's
 * text. Only markup built here again ({@link Html}) goes in as it is.
 */
import { htmlText } from '../html-text.js';
import { inert } from '../inert.js';

/** Markup made by {@link html}: safe to insert as it is. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

function piece(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(piece).join('');
  if (value === undefined || value === null || value === false) return '';
  // Controls and bidirectional overrides shown escaped, then HTML's own characters.
  return htmlText(inert(typeof value === 'string' ? value : JSON.stringify(value)));
}

/** A template whose values are escaped (arrays joined, `undefined`, `null` and `false` left out). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  return new Html(strings.reduce((out, s, i) => out + piece(values[i - 1]) + s));
}
