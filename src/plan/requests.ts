/**
 * The requests each operation runs, from the descriptors alone: which method, path and body. The
 * planner writes them into the plan, so what a reviewer saw is what the applier sends; values the
 * plan cannot hold (ids of objects created in the run, secrets) are placeholders (`request-body.ts`).
 */
import {
  collectionParts,
  findFields,
  isSensitiveField,
  moduleFields,
  type DesiredObject,
  type Field,
  type FieldPath,
  type Fields,
  type KindDescriptor,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import {
  requestBody,
  type BodyContext,
  type FieldChange,
  type OperationRequest,
  type RefValue,
} from '../plan-format/index.js';
import { isPublicMaterial } from './secrets.js';

type Plain = Record<string, unknown>;
type PathPart = string | RefValue;

/** An id known when planning, or the key of an object the run creates first. */
export type Address = string | RefValue;

/** The object's path: an id known when planning, or a reference to the key it gets created under. */
export function objectParts(d: KindDescriptor, id: Address, parent: Address | undefined): PathPart[] {
  const at = typeof id === 'string' ? encodeURIComponent(id) : id;
  return [...collectionParts<PathPart>(d, encodeParent(parent)), '/', at];
}

/** A request, its path written as one string when it holds no reference (adjacent texts joined). */
function request(
  method: OperationRequest['method'],
  parts: readonly PathPart[],
  body?: Plain,
): OperationRequest {
  const path: PathPart[] = [];
  for (const part of parts) {
    const last = path.at(-1);
    if (typeof part === 'string' && typeof last === 'string') path[path.length - 1] = last + part;
    else path.push(part);
  }
  const [only] = path;
  return {
    method,
    path: path.length === 1 && typeof only === 'string' ? only : path,
    ...(body === undefined ? {} : { body }),
  };
}

function encodeParent(parent: Address | undefined): PathPart | undefined {
  return typeof parent === 'string' ? encodeURIComponent(parent) : parent;
}

/** Paths whose values are sent as secret placeholders: secrets, write-only values, `{env}`/`{file}` values. */
function sensitivePaths(d: KindDescriptor, o: DesiredObject): FieldPath[] {
  return [
    ...findFields(d.fields, o.fields, isSensitiveField).map((p) => p.path),
    ...o.sensitive.filter((p) => !isPublicMaterial(d.fields, p)),
  ];
}

function bodyContext(d: KindDescriptor, o: DesiredObject): BodyContext {
  return { key: o.key, sensitive: sensitivePaths(d, o) };
}

function pick(fields: Fields, values: Plain, keep: (name: string, f: Field) => boolean): Plain {
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => {
      const f = fields[name];
      return f !== undefined && value !== undefined && keep(name, f);
    }),
  );
}

const createTime = new Set<Field['write']>(['mutable', 'immutable']);

/**
 * A create's POST (create-time fields, the ownership marker in `metadata`), and the PATCH setting
 * its `update-only` fields once it exists. `values` are the desired values, references resolved
 * to the ids known when planning and left as keys for objects the run creates.
 */
export function createRequests(
  d: KindDescriptor,
  o: DesiredObject,
  values: Plain,
  metadata: string,
  parent: Address | undefined,
): OperationRequest[] {
  const ctx = bodyContext(d, o);
  const created = pick(
    d.fields,
    values,
    // A null module means "no module": leaving it out says the same on every API version.
    (name, f) =>
      createTime.has(f.write) && name !== 'metadata' && !(f.type.type === 'module' && values[name] === null),
  );
  const post = request('POST', collectionParts<PathPart>(d, encodeParent(parent)), {
    ...requestBody(d.fields, created, ctx),
    metadata,
  });
  const later = pick(d.fields, values, (_, f) => f.write === 'update-only');
  if (Object.keys(later).length === 0) return [post];
  const self: RefValue = { ref: o.key };
  return [post, request('PATCH', objectParts(d, self, parent), requestBody(d.fields, later, ctx))];
}

/** The value a PATCH sends for a field the config no longer sets: what the service reports when unset. */
function unsetValue(f: Field): unknown {
  if (f.default !== undefined) return structuredClone(f.default);
  return f.nullable === true ? null : undefined;
}

/** What an update writes besides its changes. */
interface UpdateWrites {
  /** The object's path. */
  readonly path: readonly PathPart[];
  /** The `metadata` to write in the PATCH, when it must be rewritten. */
  readonly metadata: string | undefined;
}

/**
 * An update's (or adopt's, or rename's) requests, in a safe order: module removals, module
 * replacements, then one PATCH of the changed top-level fields. The metadata (whose marker holds
 * the hashes of write-only values) goes in that last PATCH, so the marker never vouches for a
 * secret the API has not accepted yet: if a module PUT fails, the next plan still sees the old hash.
 */
export function updateRequests(
  d: KindDescriptor,
  o: DesiredObject,
  values: Plain,
  changes: readonly FieldChange[],
  writes: UpdateWrites,
): OperationRequest[] {
  const ctx = bodyContext(d, o);
  const changed = new Set(changes.map((c) => String(c.path[0])));
  const modules = moduleFields(d).filter(([name]) => changed.has(name));
  const removals: OperationRequest[] = [];
  const puts: OperationRequest[] = [];
  for (const [name, module] of modules) {
    const path = [...writes.path, `/${module.name}`];
    const value = values[name];
    if (isPlainObject(value)) puts.push(request('PUT', path, requestBody(module.fields, value, ctx, [name])));
    else removals.push(request('DELETE', path));
  }
  const patch: Plain = {};
  for (const name of changed) {
    const f = d.fields[name];
    if (name === 'metadata' || f === undefined || f.type.type === 'module') continue;
    const sent = values[name] === undefined ? unsetValue(f) : values[name];
    if (sent !== undefined) patch[name] = sent;
  }
  const body = {
    ...requestBody(d.fields, patch, ctx),
    ...(writes.metadata === undefined ? {} : { metadata: writes.metadata }),
  };
  const last: OperationRequest[] =
    Object.keys(body).length === 0 ? [] : [request('PATCH', writes.path, body)];
  return [...removals, ...puts, ...last];
}

/**
 * The PATCH of an interim release: the claim field's values it keeps, which are live values
 * (never secret, never a reference).
 */
export function releaseRequest(
  d: KindDescriptor,
  path: readonly PathPart[],
  changes: readonly FieldChange[],
): OperationRequest {
  const values = Object.fromEntries(changes.map((c) => [String(c.path[0]), c.after]));
  return request('PATCH', path, requestBody(d.fields, values, { key: '', sensitive: [] }));
}

export function deleteRequest(path: readonly PathPart[]): OperationRequest {
  return request('DELETE', path);
}
