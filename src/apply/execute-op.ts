/**
 * Runs one plan operation against the API: the requests `build-request` describes, in order, with
 * recovery for creates whose response was lost.
 */
import { ApiError, isAmbiguousWriteFailure, type ApiClient } from '../api/index.js';
import type { Operation } from '../plan/types.js';
import { aTitle, descriptorOf, type DesiredObject, type KindDescriptor } from '../resources/index.js';
import {
  createRequest,
  objectPath,
  PlanMismatchError,
  updateOnlyRequest,
  updateRequests,
  type ApiRequest,
} from './build-request.js';
import type { IdTable } from './ids.js';
import { findCreated, isClaimConflict, type LiveRecord } from './recover-create.js';
import type { TokenSink } from './token-output.js';

/** Everything an operation needs besides itself; shared by all operations of a run. */
export interface OperationContext {
  readonly client: ApiClient;
  readonly scope: string;
  readonly ids: IdTable;
  readonly desired: ReadonlyMap<string, DesiredObject>;
  readonly tokens: TokenSink | undefined;
}

interface OperationOutcome {
  readonly objectId: string;
  readonly recovery?: string;
}

/** POSTs tried for one create when each response is lost and the lookup finds nothing. */
const createAttempts = 3;

async function send(client: ApiClient, request: ApiRequest): Promise<LiveRecord | undefined> {
  const response = await client.request<LiveRecord | undefined>(
    request.method,
    request.path,
    request.body === undefined ? {} : { body: request.body },
  );
  return response.body;
}

function desiredOf(ctx: OperationContext, op: Operation): DesiredObject {
  const object = ctx.desired.get(op.key);
  if (object === undefined) throw new PlanMismatchError(`${op.id}: '${op.key}' is not in the desired state`);
  return object;
}

function parentIdOf(
  ctx: OperationContext,
  d: KindDescriptor,
  op: Operation,
  object?: DesiredObject,
): string | undefined {
  if (d.parent?.via !== 'path') return undefined;
  // An object that exists lives under the parent the plan saw it under, even when that parent
  // left the config or is being replaced; only a new object needs its parent's (possibly new) id.
  if (op.liveParentId !== undefined) return op.liveParentId;
  const parentKey = op.parentKey ?? object?.parentKey;
  if (parentKey === undefined) throw new PlanMismatchError(`${op.id}: ${aTitle(d)} needs its parent's key`);
  const id = ctx.ids.lookup(parentKey);
  if (id === undefined) throw new PlanMismatchError(`${op.id}: no id for the parent '${parentKey}'`);
  return id;
}

function liveIdOf(op: Operation): string {
  if (op.liveId === undefined) throw new PlanMismatchError(`${op.id}: a ${op.action} needs the live id`);
  return op.liveId;
}

async function saveToken(
  ctx: OperationContext,
  d: KindDescriptor,
  op: Operation,
  record: LiveRecord,
  id: string,
): Promise<void> {
  if (d.tokenField === undefined || ctx.tokens === undefined) return;
  const token = record[d.tokenField];
  if (typeof token !== 'string' || token === '') return;
  await ctx.tokens.save(op.key, { kind: d.kind, id, token, createdAt: new Date().toISOString() });
}

/**
 * POST, and when the outcome is unknown, look for the object before trying again. A token-bearing
 * object found that way has lost its token with the response: it is deleted and created again so
 * the token can be saved (an API key nobody holds the token of is useless).
 */
async function createOnce(
  ctx: OperationContext,
  d: KindDescriptor,
  op: Operation,
  request: ApiRequest,
  parentId: string | undefined,
): Promise<{ record: LiveRecord; recovery?: string }> {
  let lastError: unknown;
  const notes: string[] = [];
  for (let attempt = 1; attempt <= createAttempts; attempt++) {
    try {
      const record = await send(ctx.client, request);
      if (record === undefined || typeof record.id !== 'string')
        throw new PlanMismatchError(`POST ${request.path}: no id in the response`);
      return notes.length === 0 ? { record } : { record, recovery: notes.join('; ') };
    } catch (err) {
      if (isClaimConflict(err, d)) return adoptRacingCreate(ctx, d, op, parentId, notes, err);
      if (!isAmbiguousWriteFailure(err)) throw err;
      lastError = err;
    }
    const found = await findCreated(ctx.client, d, parentId, ctx.scope, op.key, ctx.ids);
    if (found === undefined) {
      notes.push('create response lost and no object found: created again');
      continue;
    }
    const foundId = found.id as string;
    if (d.tokenField !== undefined && ctx.tokens !== undefined) {
      await deleteObject(ctx.client, objectPath(d, foundId, parentId));
      notes.push(`create response lost with its token: deleted ${foundId} and created again`);
      continue;
    }
    notes.push(`create response lost: found ${foundId} by its marker and kept it`);
    return { record: found, recovery: notes.join('; ') };
  }
  throw lastError;
}

/**
 * A create refused because the value it claims is taken: when another writer of this scope
 * created the same key at the same moment, its object (found by the marker) is this one;
 * otherwise the refusal stands.
 */
async function adoptRacingCreate(
  ctx: OperationContext,
  d: KindDescriptor,
  op: Operation,
  parentId: string | undefined,
  notes: readonly string[],
  refusal: unknown,
): Promise<{ record: LiveRecord; recovery: string }> {
  const found = await findCreated(ctx.client, d, parentId, ctx.scope, op.key, ctx.ids);
  if (found === undefined) throw refusal;
  const note = `another writer created it at the same moment: found ${String(found.id)} by its marker and kept it`;
  return { record: found, recovery: [...notes, note].join('; ') };
}

/** DELETE that counts "already gone" as done: a retried DELETE whose first try committed gets a 404. */
async function deleteObject(client: ApiClient, path: string): Promise<void> {
  try {
    await client.delete(path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
}

async function create(ctx: OperationContext, d: KindDescriptor, op: Operation): Promise<OperationOutcome> {
  const object = desiredOf(ctx, op);
  const parentId = parentIdOf(ctx, d, op, object);
  const { record, recovery } = await createOnce(
    ctx,
    d,
    op,
    createRequest(d, op, object, ctx.ids, parentId),
    parentId,
  );
  const id = record.id as string;
  // Recorded before the follow-up PATCH: the object exists, and the id table must say so even if it fails.
  ctx.ids.created(op.key, id);
  await saveToken(ctx, d, op, record, id);
  const followUp = updateOnlyRequest(d, object, ctx.ids, objectPath(d, id, parentId));
  if (followUp !== undefined) await send(ctx.client, followUp);
  return recovery === undefined ? { objectId: id } : { objectId: id, recovery };
}

async function update(ctx: OperationContext, d: KindDescriptor, op: Operation): Promise<OperationOutcome> {
  const object = desiredOf(ctx, op);
  const id = liveIdOf(op);
  const path = objectPath(d, id, parentIdOf(ctx, d, op, object));
  for (const request of updateRequests(d, op, object, ctx.ids, path)) {
    if (request.method === 'DELETE') await deleteObject(ctx.client, request.path);
    else await send(ctx.client, request);
  }
  return { objectId: id };
}

async function remove(ctx: OperationContext, d: KindDescriptor, op: Operation): Promise<OperationOutcome> {
  const id = liveIdOf(op);
  await deleteObject(ctx.client, objectPath(d, id, parentIdOf(ctx, d, op)));
  return { objectId: id };
}

/**
 * Executes `op`; resolves with the object's id, rejects with the first failed request's error
 * ({@link ApiError}, a transport error, or {@link PlanMismatchError}).
 */
export async function executeOperation(ctx: OperationContext, op: Operation): Promise<OperationOutcome> {
  const d = descriptorOf(op.kind);
  switch (op.action) {
    case 'create':
      return create(ctx, d, op);
    case 'update':
    case 'adopt':
    case 'rename':
      return update(ctx, d, op);
    case 'delete':
      return remove(ctx, d, op);
  }
}
