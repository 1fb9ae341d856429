/**
 * How the emulator keeps and answers what it is written where the spec is silent: as the vendor's
 * published examples show (the default), or as an echo of the request (`echo`, for tests that
 * need to see exactly what was sent). Each decision and its source: docs/emulator.md, "How it
 * answers". Keyed by field data (a format, a flag of the field table), never by kind.
 */
import { mapValue, type Field, type Fields, type ValueMapper } from '../resources/index.js';

/** `vendor`: as the vendor's examples answer; `echo`: what was written, as written. */
export type Answers = 'vendor' | 'echo';

type Plain = Record<string, unknown>;

const pemFormats = new Set(['pem-certificate', 'pem-certificate-chain', 'pem-private-key']);

/** A PEM the service keeps ends with a newline, whether the request's did or not. */
function keptLeaf(f: Field['type'], value: unknown): unknown {
  if (f.type !== 'string' || f.format === undefined || !pemFormats.has(f.format)) return value;
  return typeof value === 'string' && !value.endsWith('\n') ? `${value}\n` : value;
}

const kept: ValueMapper = {
  object: (nested, value) => keptValues(nested.fields, value),
  leaf: keptLeaf,
};

/**
 * Written values (response names, before defaults) as the vendor's service keeps them: a member it
 * ignores is dropped (it answers its default), a PEM gains its trailing newline, a member left out
 * takes the service's own default where it differs from acctsync's; at every depth written.
 */
export function keptValues(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    if (f?.serviceIgnores === true) continue;
    out[name] = f === undefined ? value : mapValue(f.type, value, kept);
  }
  for (const [name, f] of Object.entries(fields)) {
    if (!(name in values) && f.serviceDefault !== undefined) out[name] = f.serviceDefault;
  }
  return out;
}

/** Whether a top-level member is left out of an answer: an empty one the service omits. */
export function omittedFromAnswer(f: Field, value: unknown): boolean {
  return f.omittedWhenEmpty === true && (value === '' || value === undefined || value === null);
}
