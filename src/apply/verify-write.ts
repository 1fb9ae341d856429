/**
 * Each write checked against the service's answer: every member the request sent must come back
 * as sent, compared in the normal forms the planner compares in (`resources/canonical.ts`). A member
 * the service did not keep fails the operation, naming the object, the member and both values
 * (a secret masked): otherwise the next plan would plan the same write again, for ever.
 */
import equal from 'fast-deep-equal';
import {
  canonicalValues,
  derivedOnce,
  moduleFields,
  namedFields,
  nestedObject,
  withDefaults,
  writableValues,
  type Fields,
  type KindDescriptor,
} from '../resources/index.js';
import { sensitiveMask, type OperationRequest } from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';
import type { ResolvedRequest } from './resolve-request.js';

type Plain = Readonly<Record<string, unknown>>;

/** A write the service answered with another value than the one sent. */
export class WriteNotKeptError extends Error {
  constructor(
    readonly object: string,
    readonly field: string,
    readonly sent: string,
    readonly kept: string,
    readonly request: string,
  ) {
    super(`the service did not keep ${object} ${field}: sent ${sent}, kept ${kept}`);
    this.name = 'WriteNotKeptError';
  }
}

interface NotKept {
  readonly path: readonly string[];
  readonly sent: unknown;
  readonly kept: unknown;
  readonly masked: boolean;
}

/** Whether the plan's request holds a secret placeholder here: the value is never shown. */
function isSecretPlaceholder(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 1 && 'secret' in value;
}

/**
 * Each member of a field table as a table of its own, made once: the table-level walks below cache
 * what they derive per table, and a table made afresh for every member of every write would miss
 * that cache each time (0.12-0.16 ms of CPU per create at parallelism 1 in `npm run bench`, 0.08-0.09
 * with the tables kept).
 */
const memberTables = derivedOnce(
  (fields: Fields): ReadonlyMap<string, Fields> =>
    new Map(namedFields(fields).map(({ name, field }) => [name, { [name]: field }])),
);

/** One member of both sides as the planner compares it: plain values, defaults filled, normal forms. */
function comparable(table: Fields, name: string, value: unknown): unknown {
  const filled = withDefaults(table, value === undefined ? {} : { [name]: value });
  return canonicalValues(table, filled)[name] ?? null;
}

/** The first member of `sent` (request names) that `kept` (the answer) does not hold as sent. */
function firstNotKept(
  fields: Fields,
  sent: Plain,
  kept: Plain,
  planned: Plain | undefined,
  path: readonly string[],
): NotKept | undefined {
  for (const { name, field: f, requestName } of namedFields(fields)) {
    if (!(requestName in sent) || f.writeOnly === true || f.serviceIgnores === true) continue;
    if (f.write === 'read-only') continue;
    const masked = f.secret === true || isSecretPlaceholder(planned?.[requestName]);
    const sentValue = sent[requestName];
    const keptValue = kept[name];
    const nested = nestedObject(f.type);
    if (nested !== undefined && isPlainObject(sentValue) && isPlainObject(keptValue)) {
      const inner = planned?.[requestName];
      const found = firstNotKept(
        nested.fields,
        sentValue,
        keptValue,
        isPlainObject(inner) ? inner : undefined,
        [...path, name],
      );
      if (found !== undefined) return found;
      continue;
    }
    // Sent as a request value (ids), answered as a record value (`Ref`s): both as plain values.
    const blank = f.blankIsUnset === true && (sentValue === null || sentValue === '');
    const table = memberTables(fields).get(name) ?? { [name]: f };
    const asSent = comparable(table, name, blank ? undefined : sentValue);
    const asKept = comparable(table, name, writableValues(table, { [name]: keptValue })[name]);
    // A member the answer leaves out holds its default (an omitted description is `""`).
    if (!equal(asSent, asKept))
      return { path: [...path, name], sent: sentValue, kept: keptValue ?? f.default, masked };
  }
  return undefined;
}

/** The fields a request writes: a module PUT writes its module's, any other write the kind's. */
function writtenFields(d: KindDescriptor, request: ResolvedRequest): Fields {
  if (request.method !== 'PUT') return d.fields;
  const segment = request.path.split('/').at(-1);
  return moduleFields(d).find(([, module]) => module.name === segment)?.[1].fields ?? d.fields;
}

function shown(value: unknown, masked: boolean): string {
  if (masked) return sensitiveMask;
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

/**
 * Throws {@link WriteNotKeptError} when `answer` does not hold what `request` sent. `planned` is
 * the plan's request, whose placeholders say which values are secret.
 */
export function verifyWrite(
  d: KindDescriptor,
  object: string,
  planned: OperationRequest,
  request: ResolvedRequest,
  answer: unknown,
): void {
  if (request.body === undefined || !isPlainObject(answer)) return;
  const found = firstNotKept(writtenFields(d, request), request.body, answer, planned.body, []);
  if (found === undefined) return;
  throw new WriteNotKeptError(
    object,
    found.path.join('.'),
    shown(found.sent, found.masked),
    shown(found.kept, found.masked),
    `${request.method} ${request.path}`,
  );
}
