/**
 * Runs one plan operation against the API: the requests the plan carries, in order, each resolved
 * the moment it is sent (`request.ts`); with recovery for creates whose response was lost. One
 * module because the recovery is a create's own: it runs inside the create's attempts and decides
 * whether the next attempt POSTs again.
 *
 * The recovery: after a POST whose outcome is unknown (timeout, connection lost after sending,
 * 5xx), find out whether the object exists by the ownership marker it was sent with. The marker
 * names scope and key, so the lookup cannot mistake another object for ours; ids that existed when
 * the plan was made (the old half of a replace carries the same key) are ignored.
 */
import { deleteIfPresent, isAmbiguousWriteFailure, isClaimConflict, type ApiClient } from '../api/index.js';
import { liveObject, markedAs } from '../live/index.js';
import type { Operation, OperationRequest } from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';
import {
  aTitle,
  claimCode,
  collectionPath,
  objectPath,
  type DesiredObject,
  type KindDescriptor,
  type KindName,
  type KindRegistry,
} from '../resources/index.js';
import {
  PlanMismatchError,
  resolveRequest,
  verifyWrite,
  type IdTable,
  type ResolvedRequest,
} from './request.js';
import type { TokenSink } from './token-output.js';

/** Everything an operation needs besides itself; shared by all operations of a run. */
export interface OperationContext {
  readonly client: ApiClient;
  /** The kinds the plan's objects are of. */
  readonly kinds: KindRegistry;
  readonly scope: string;
  readonly ids: IdTable;
  readonly desired: ReadonlyMap<string, DesiredObject>;
  readonly tokens: TokenSink | undefined;
  /**
   * Runs synchronously right before each request goes out (retries and recovery included) and
   * throws when this run may no longer write: the scope's lease check.
   */
  readonly mayWrite: (() => void) | undefined;
}

/** The request options that make each attempt wait on `ctx.mayWrite`. */
function guarded(ctx: OperationContext): { readonly beforeSend?: () => void } {
  return ctx.mayWrite === undefined ? {} : { beforeSend: ctx.mayWrite };
}

interface OperationOutcome {
  readonly objectId: string;
  readonly recovery?: string;
}

type LiveRecord = Readonly<Record<string, unknown>>;

/** Every live object of the collection `d` lives in (under `parentId` for nested kinds). */
async function siblings(
  client: ApiClient,
  kinds: KindRegistry,
  d: KindDescriptor,
  parentId: string | undefined,
): Promise<LiveRecord[]> {
  if (d.operations.list && d.listMember !== undefined) {
    return client.listAll<LiveRecord>(collectionPath(d, parentId), d.listMember);
  }
  // Routes have no list endpoint: they come embedded in their parent's record.
  const parent = d.parent;
  if (parent?.embeddedAs === undefined || parentId === undefined) {
    throw new Error(`${d.title}: no way to list objects to recover a lost create`);
  }
  const owner = await client.get<LiveRecord>(
    objectPath(kinds.descriptorOf(parent.kind), parentId, undefined),
  );
  const embedded = owner.body[parent.embeddedAs];
  return Array.isArray(embedded) ? embedded.filter(isPlainObject) : [];
}

/**
 * The object a lost create made, if it exists: the one carrying `scope`/`key` in its marker whose id
 * did not exist at plan time.
 */
async function findCreated(
  client: ApiClient,
  kinds: KindRegistry,
  d: KindDescriptor,
  parentId: string | undefined,
  scope: string,
  key: string,
  ids: IdTable,
): Promise<LiveRecord | undefined> {
  for (const record of await siblings(client, kinds, d, parentId)) {
    const id = record.id;
    if (typeof id !== 'string' || ids.existedAtPlanTime(id)) continue;
    if (markedAs(liveObject(d, record, parentId), scope, key)) return record;
  }
  return undefined;
}

/** POSTs tried for one create when each response is lost and the lookup finds nothing. */
const createAttempts = 3;

/** A request of the plan and the same request as sent. */
interface Write {
  readonly planned: OperationRequest;
  readonly sent: ResolvedRequest;
}

function writeOf(planned: OperationRequest, ctx: OperationContext): Write {
  return { planned, sent: resolveRequest(planned, ctx) };
}

/** Sends a write and checks the answer holds what it sent (`verifyWrite`, `request.ts`). */
async function send(
  ctx: OperationContext,
  d: KindDescriptor,
  op: Operation,
  write: Write,
): Promise<LiveRecord | undefined> {
  const { sent } = write;
  const response = await ctx.client.request<LiveRecord | undefined>(sent.method, sent.path, {
    ...guarded(ctx),
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  verifyWrite(d, op.key, write.planned, sent, response.body);
  return response.body;
}

/** For a kind addressed under its parent: the parent a create goes under, where a lost one is looked for. */
function parentIdOf(ctx: OperationContext, d: KindDescriptor, op: Operation): string | undefined {
  if (d.parent?.via !== 'path') return undefined;
  const parentKey = op.parentKey;
  if (parentKey === undefined) throw new PlanMismatchError(`${op.id}: ${aTitle(d)} needs its parent's key`);
  const id = ctx.ids.lookup(parentKey);
  if (id === undefined) throw new PlanMismatchError(`${op.id}: no id for the parent '${parentKey}'`);
  return id;
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
  write: Write,
  parentId: string | undefined,
): Promise<{ record: LiveRecord; recovery?: string }> {
  let lastError: unknown;
  const notes: string[] = [];
  for (let attempt = 1; attempt <= createAttempts; attempt++) {
    try {
      const record = await send(ctx, d, op, write);
      if (record === undefined || typeof record.id !== 'string')
        throw new PlanMismatchError(`POST ${write.sent.path}: no id in the response`);
      return notes.length === 0 ? { record } : { record, recovery: notes.join('; ') };
    } catch (err) {
      if (isClaimConflict(err, claimCode(d))) return adoptRacingCreate(ctx, d, op, parentId, notes, err);
      if (!isAmbiguousWriteFailure(err)) throw err;
      lastError = err;
    }
    ctx.mayWrite?.();
    const found = await findCreated(ctx.client, ctx.kinds, d, parentId, ctx.scope, op.key, ctx.ids);
    if (found === undefined) {
      notes.push('create response lost and no object found: created again');
      continue;
    }
    const foundId = found.id as string;
    if (d.tokenField !== undefined && ctx.tokens !== undefined) {
      await deleteIfPresent(ctx.client, objectPath(d, foundId, parentId), guarded(ctx));
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
  ctx.mayWrite?.();
  const found = await findCreated(ctx.client, ctx.kinds, d, parentId, ctx.scope, op.key, ctx.ids);
  if (found === undefined) throw refusal;
  const note = `another writer created it at the same moment: found ${String(found.id)} by its marker and kept it`;
  return { record: found, recovery: [...notes, note].join('; ') };
}

/** Sends `write`; a DELETE answered 404 counts as done. */
async function run(ctx: OperationContext, d: KindDescriptor, op: Operation, write: Write): Promise<void> {
  if (write.sent.method === 'DELETE') await deleteIfPresent(ctx.client, write.sent.path, guarded(ctx));
  else await send(ctx, d, op, write);
}

async function create(ctx: OperationContext, kind: KindName, op: Operation): Promise<OperationOutcome> {
  const d = ctx.kinds.descriptorOf(kind);
  const requests = op.requests;
  const post = requests[0];
  if (post?.method !== 'POST') throw new PlanMismatchError(`${op.id}: a create must start with its POST`);
  const parentId = parentIdOf(ctx, d, op);
  const { record, recovery } = await createOnce(ctx, d, op, writeOf(post, ctx), parentId);
  const id = record.id as string;
  // Recorded before the follow-up PATCH: the object exists, and the id table must say so even if it
  // fails; the follow-ups address it by its key, which now resolves to this id.
  ctx.ids.created(op.key, id);
  await saveToken(ctx, d, op, record, id);
  for (let i = 1; i < requests.length; i++) {
    await run(ctx, d, op, writeOf(requests[i] as OperationRequest, ctx));
  }
  return recovery === undefined ? { objectId: id } : { objectId: id, recovery };
}

/** An operation on an object that exists: its requests in the plan's order. */
async function change(ctx: OperationContext, op: Operation): Promise<OperationOutcome> {
  if (op.liveId === undefined) throw new PlanMismatchError(`${op.id}: a ${op.action} needs the live id`);
  const d = ctx.kinds.descriptorOf(op.kind);
  for (const request of op.requests) await run(ctx, d, op, writeOf(request, ctx));
  return { objectId: op.liveId };
}

/**
 * Executes `op`; resolves with the object's id, rejects with the first failed request's error
 * (an `ApiError`, a transport error, or {@link PlanMismatchError}).
 */
export function executeOperation(ctx: OperationContext, op: Operation): Promise<OperationOutcome> {
  // Not async itself: one promise per operation fewer. Both branches reject rather than throw.
  return op.action === 'create' ? create(ctx, op.kind, op) : change(ctx, op);
}
