/**
 * Request building from the descriptors alone: which method, path and body each operation needs.
 * Pure functions, no I/O, so every kind is handled by the same dozen lines and tested without a server.
 */
import type { DesiredObject, Field, Fields, KindDescriptor } from '../resources/index.js';
import { mapReferences, toRequestBody } from '../resources/index.js';
import type { Operation } from '../plan/types.js';
import type { IdTable } from './ids.js';

export interface ApiRequest {
  readonly method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: Readonly<Record<string, unknown>>;
}

/** A plan asked for something the descriptors say the API cannot do: a bug in the plan, not the user's. */
export class PlanMismatchError extends Error {
  override readonly name = 'PlanMismatchError';
}

/** The collection path with the parent's id filled in (`/edges/https/edghts_1/routes`). */
export function collectionPath(d: KindDescriptor, parentId: string | undefined): string {
  if (!d.path.includes('{')) return d.path;
  if (parentId === undefined) throw new PlanMismatchError(`${d.title}: no parent id to build ${d.path}`);
  return d.path.replace(/\{[^}]+\}/, encodeURIComponent(parentId));
}

export function objectPath(d: KindDescriptor, id: string, parentId: string | undefined): string {
  return `${collectionPath(d, parentId)}/${encodeURIComponent(id)}`;
}

/** Desired values with every reference rewritten to an id. */
function resolvedValues(d: KindDescriptor, object: DesiredObject, ids: IdTable): Record<string, unknown> {
  return mapReferences(d.fields, object.fields, (ref) => ids.resolve(ref));
}

const createTime = new Set<Field['write']>(['mutable', 'immutable']);

function pick(fields: Fields, values: Record<string, unknown>, keep: (name: string, f: Field) => boolean) {
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => {
      const f = fields[name];
      return f !== undefined && value !== undefined && keep(name, f);
    }),
  );
}

/** The `metadata` the plan computed for `op` (user metadata plus marker); required on create and adopt. */
function metadataOf(op: Operation): string {
  if (op.metadata === undefined)
    throw new PlanMismatchError(`${op.id}: the plan gives no metadata (ownership marker) to write`);
  return op.metadata;
}

/** POST body: create-time fields as request names, and the ownership marker in `metadata`. */
export function createRequest(
  d: KindDescriptor,
  op: Operation,
  object: DesiredObject,
  ids: IdTable,
  parentId: string | undefined,
): ApiRequest {
  const values = pick(
    d.fields,
    resolvedValues(d, object, ids),
    // A null module means "no module": leaving it out says the same on every API version.
    (name, f) =>
      createTime.has(f.write) &&
      name !== 'metadata' &&
      !(f.type.type === 'module' && object.fields[name] === null),
  );
  return {
    method: 'POST',
    path: collectionPath(d, parentId),
    body: { ...toRequestBody(d.fields, values), metadata: metadataOf(op) },
  };
}

/** The PATCH that sets `update-only` fields right after a create, or undefined when none is set. */
export function updateOnlyRequest(
  d: KindDescriptor,
  object: DesiredObject,
  ids: IdTable,
  path: string,
): ApiRequest | undefined {
  const values = pick(d.fields, resolvedValues(d, object, ids), (_, f) => f.write === 'update-only');
  return Object.keys(values).length === 0
    ? undefined
    : { method: 'PATCH', path, body: toRequestBody(d.fields, values) };
}

/** The value a PATCH sends for a field the config no longer sets: what the service reports when unset. */
function unsetValue(f: Field): unknown {
  if (f.default !== undefined) return structuredClone(f.default);
  return f.nullable === true ? null : undefined;
}

/**
 * Requests for an update or an adopt, in a safe order: module removals, module replacements, then
 * one PATCH of the changed top-level fields. The plan's metadata (whose marker holds the hashes of
 * write-only values) goes in that last PATCH, so the marker never vouches for a secret the API has
 * not accepted yet: if a module PUT fails, the next plan still sees the old hash and retries.
 */
export function updateRequests(
  d: KindDescriptor,
  op: Operation,
  object: DesiredObject,
  ids: IdTable,
  path: string,
): ApiRequest[] {
  if (op.interim === true) {
    const body = Object.fromEntries(op.changes.map((c) => [String(c.path[0]), c.after]));
    return [{ method: 'PATCH', path, body: toRequestBody(d.fields, body) }];
  }
  const values = resolvedValues(d, object, ids);
  const modules = new Map((op.modules ?? []).map((m) => [m.name, m.action]));
  const removals: ApiRequest[] = [];
  const puts: ApiRequest[] = [];
  for (const [name, action] of modules) {
    const f = d.fields[name];
    if (f?.type.type !== 'module') throw new PlanMismatchError(`${d.title} has no module '${name}'`);
    const modulePath = `${path}/${f.type.module.name}`;
    const value = values[name];
    if (action === 'delete') removals.push({ method: 'DELETE', path: modulePath });
    else if (typeof value === 'object' && value !== null) {
      puts.push({
        method: 'PUT',
        path: modulePath,
        body: toRequestBody(f.type.module.fields, value as Record<string, unknown>),
      });
    } else throw new PlanMismatchError(`${op.id}: module '${name}' to put is not in the desired state`);
  }
  const patch: Record<string, unknown> = {};
  for (const name of new Set(op.changes.map((c) => String(c.path[0])))) {
    if (name === 'metadata' || modules.has(name)) continue;
    const f = d.fields[name];
    if (f === undefined) throw new PlanMismatchError(`${d.title} has no field '${name}'`);
    if (f.type.type === 'module')
      throw new PlanMismatchError(
        `${op.id}: module '${name}' changed but the plan says neither put nor delete`,
      );
    if (f.write !== 'mutable' && f.write !== 'update-only') {
      throw new PlanMismatchError(`${d.title} field '${name}' is ${f.write}: it cannot change in place`);
    }
    const value = values[name];
    const sent = value === undefined ? unsetValue(f) : value;
    if (sent !== undefined) Object.assign(patch, toRequestBody(d.fields, { [name]: sent }));
  }
  if (op.action === 'adopt') patch.metadata = metadataOf(op);
  else if (op.metadata !== undefined) patch.metadata = op.metadata;
  const last: ApiRequest[] = Object.keys(patch).length === 0 ? [] : [{ method: 'PATCH', path, body: patch }];
  return [...removals, ...puts, ...last];
}
