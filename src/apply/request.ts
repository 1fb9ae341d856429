/**
 * A request of the plan, from the plan's text to the service's answer: resolved the moment it is
 * sent, then checked against what the service kept. One module because both halves work on the
 * planned request beside the one sent: resolving makes the second from the placeholders of the
 * first (`plan-format/request-body.ts`), and the check reads the first's secret placeholders to
 * know which values it must not show.
 *
 * Resolving: `{ref}` becomes the id the key has now (an object created earlier in this run wins
 * over the plan's), `{secret}` the value in the desired state the applier was handed, `{entries}`
 * the object they make.
 *
 * Checking: every member the request sent must come back as sent, compared in the normal forms the
 * planner compares in (`resources/canonical.ts`). A member the service did not keep fails the
 * operation, naming the object, the member and both values (a secret masked): otherwise the next
 * plan would plan the same write again, for ever.
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
  type DesiredObject,
  type FieldPath,
  type Fields,
  type KindDescriptor,
} from '../resources/index.js';
import {
  isPlaceholderShaped,
  sensitiveMask,
  type OperationRequest,
  type Plan,
  type RefValue,
} from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';

type Plain = Readonly<Record<string, unknown>>;

/** A plan asked for something the applier cannot do with it: a bug in the plan, not the user's. */
export class PlanMismatchError extends Error {
  override readonly name = 'PlanMismatchError';
}

/**
 * Which live id a logical key stands for while a plan runs. The plan knows the ids of objects that
 * existed when it was made; objects created in this run get theirs as the run goes, and those win:
 * after a replace, referrers must point at the new object, not the old one.
 */
export class IdTable {
  readonly #known: Readonly<Record<string, string>>;
  readonly #created = new Map<string, string>();
  /** Every id that existed when the plan was made: never taken for an object this run created. */
  readonly #preexisting: ReadonlySet<string>;

  constructor(plan: Plan) {
    this.#known = plan.resolvedIds;
    this.#preexisting = new Set([
      ...Object.values(plan.resolvedIds),
      ...plan.operations.flatMap((op) => (op.liveId === undefined ? [] : [op.liveId])),
    ]);
  }

  /** Records the id of an object created (or recovered) in this run. */
  created(key: string, id: string): void {
    this.#created.set(key, id);
  }

  /** Whether `id` belonged to an object that existed when the plan was made. */
  existedAtPlanTime(id: string): boolean {
    return this.#preexisting.has(id);
  }

  /** The current id of `key`, or undefined when neither the plan nor this run knows it. */
  lookup(key: string): string | undefined {
    return this.#created.get(key) ?? this.#known[key];
  }
}

/** A request ready to send: its path joined, its body with real values. */
export interface ResolvedRequest {
  readonly method: OperationRequest['method'];
  readonly path: string;
  readonly body?: Readonly<Record<string, unknown>>;
}

/** Where the values behind placeholders come from. */
interface ResolveContext {
  readonly ids: IdTable;
  readonly desired: ReadonlyMap<string, DesiredObject>;
}

function idOf(ref: unknown, ctx: ResolveContext): string {
  if (typeof ref !== 'string')
    throw new PlanMismatchError(`a reference in the plan is not a key: ${String(ref)}`);
  const id = ctx.ids.lookup(ref);
  if (id === undefined)
    throw new PlanMismatchError(
      `no id for '${ref}': it was neither live at plan time nor created in this run`,
    );
  return id;
}

function valueAt(values: unknown, path: FieldPath): unknown {
  return path.reduce<unknown>(
    (at, step) =>
      Array.isArray(at) || isPlainObject(at) ? (at as Record<string, unknown>)[String(step)] : undefined,
    values,
  );
}

function secretOf(ref: unknown, ctx: ResolveContext): unknown {
  const { key, path } = (isPlainObject(ref) ? ref : {}) as { key?: unknown; path?: unknown };
  const object = typeof key === 'string' ? ctx.desired.get(key) : undefined;
  const value =
    object !== undefined && Array.isArray(path) ? valueAt(object.fields, path as FieldPath) : undefined;
  if (value === undefined)
    throw new PlanMismatchError(`a secret of '${String(key)}' the plan sends is not in the config`);
  return value;
}

function entriesOf(entries: unknown, ctx: ResolveContext): Record<string, unknown> {
  if (!Array.isArray(entries)) throw new PlanMismatchError('malformed entries in a request of the plan');
  return Object.fromEntries(
    entries.map((entry: unknown) => {
      if (!Array.isArray(entry) || entry.length !== 2)
        throw new PlanMismatchError('malformed entry in the plan');
      const [k, v] = entry as [unknown, unknown];
      return [isPlainObject(k) ? idOf((k as Partial<RefValue>).ref, ctx) : String(k), resolveValue(v, ctx)];
    }),
  );
}

function resolveValue(value: unknown, ctx: ResolveContext): unknown {
  if (Array.isArray(value)) {
    const resolved = value.map((v) => resolveValue(v, ctx));
    return resolved.every((v, i) => v === value[i]) ? value : resolved;
  }
  if (!isPlainObject(value)) return value;
  if (isPlaceholderShaped(value)) {
    if ('ref' in value) return idOf(value.ref, ctx);
    if ('secret' in value) return secretOf(value.secret, ctx);
    return entriesOf(value.entries, ctx);
  }
  return resolveMembers(value, ctx);
}

/**
 * `value` with its members resolved; `value` itself when none holds a placeholder (most bodies),
 * so that sending it costs no copy.
 */
function resolveMembers(value: Readonly<Record<string, unknown>>, ctx: ResolveContext): unknown {
  const names = Object.keys(value);
  let entries: [string, unknown][] | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const member = value[name];
    const resolved = resolveValue(member, ctx);
    if (entries === undefined && resolved !== member) {
      entries = names.slice(0, i).map((n): [string, unknown] => [n, value[n]]);
    }
    entries?.push([name, resolved]);
  }
  return entries === undefined ? value : Object.fromEntries(entries);
}

export function resolveRequest(request: OperationRequest, ctx: ResolveContext): ResolvedRequest {
  const path =
    typeof request.path === 'string'
      ? request.path
      : request.path
          .map((part) => (typeof part === 'string' ? part : encodeURIComponent(idOf(part.ref, ctx))))
          .join('');
  if (request.body === undefined) return { method: request.method, path };
  return { method: request.method, path, body: resolveValue(request.body, ctx) as Record<string, unknown> };
}

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
