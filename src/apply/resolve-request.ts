/**
 * Turns a request of the plan into the one sent: each placeholder the planner wrote (see
 * `plan-format/request-body.ts`) resolved at the moment of sending: `{ref}` to the id the key has now
 * (an object created earlier in this run), `{secret}` to the value in the desired state the
 * applier was handed, `{entries}` to the object they make.
 */
import type { DesiredObject, FieldPath } from '../resources/index.js';
import type { OperationRequest, RefValue } from '../plan-format/index.js';
import { isPlaceholderShaped } from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';
import type { IdTable } from './ids.js';
import { PlanMismatchError } from './plan-mismatch.js';

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
