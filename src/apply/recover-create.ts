/**
 * After a POST whose outcome is unknown (timeout, connection lost after sending, 5xx), find out
 * whether the object exists by the ownership marker it was sent with. The marker names scope and
 * key, so the lookup cannot mistake another object for ours; ids that existed when the plan was made
 * (the old half of a replace carries the same key) are ignored.
 */
import type { ApiClient } from '../api/index.js';
import { liveObject, markedAs } from '../live/index.js';
import {
  collectionPath,
  errorCodeString,
  objectPath,
  type KindDescriptor,
  type KindRegistry,
} from '../resources/index.js';

import type { IdTable } from './ids.js';
import { isPlainObject } from '../plain-object.js';

export type LiveRecord = Readonly<Record<string, unknown>>;

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
export async function findCreated(
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

/**
 * The code the service refuses a create with when a unique value of `d` it claims is held: by an
 * object another writer created at the same moment (a holder past its lease), then found by its
 * marker and kept.
 */
export function claimCodeOf(d: KindDescriptor): string | undefined {
  const code = d.naturalKey?.claim?.code;
  return code === undefined ? undefined : errorCodeString(code);
}
