/**
 * The live state: every object of the collections a plan can touch, fetched with one list walk per
 * collection (all pages), collections in parallel within the client's concurrency limit. Routes come
 * embedded in their HTTPS edge, so they cost no request of their own.
 */
import { compare } from '../compare.js';
import type { ApiClient } from '../api/index.js';
import {
  descriptorOf,
  isLeaseObject,
  isServiceOwned,
  managedDescriptors,
  referencedKinds,
  type DesiredState,
  type KindDescriptor,
  type KindName,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import { liveObject, type LiveObject } from './record.js';

export interface LiveState {
  /** The collections fetched, in descriptor order. */
  readonly kinds: readonly KindName[];
  /** Every object of those collections, sorted by kind (descriptor order) then id. */
  readonly objects: readonly LiveObject[];
}

interface FetchOptions {
  /** With deletes off, only the desired kinds (and their referrers) can be touched. */
  readonly noDelete?: boolean;
  /** Exactly these collections (a saved plan's `liveKinds`), overriding the computed set. */
  readonly kinds?: readonly KindName[];
  readonly signal?: AbortSignal;
}

/** Each managed kind's place in descriptor order, in the registry in scope. */
function kindOrder(): (kind: KindName) => number {
  const order = new Map(managedDescriptors().map((d, i) => [d.kind, i]));
  return (kind) => order.get(kind) ?? managedDescriptors().length;
}

/**
 * The managed kinds a plan may touch. With deletes on, any managed kind may hold an object marked
 * with this scope, so every one is listed; with `noDelete`, the desired kinds plus the kinds that
 * reference them (referrers of a replaced object are repointed).
 */
export function kindsToFetch(desired: DesiredState, options: FetchOptions = {}): KindName[] {
  if (options.kinds) return sortKinds(options.kinds);
  if (!options.noDelete) return managedDescriptors().map((d) => d.kind);
  const wanted = new Set(desired.objects.map((o) => o.kind));
  for (const d of managedDescriptors()) {
    if ([...referencedKinds(d)].some((k) => wanted.has(k))) wanted.add(d.kind);
  }
  return sortKinds([...wanted]);
}

function sortKinds(kinds: Iterable<KindName>): KindName[] {
  const order = kindOrder();
  return [...new Set(kinds)].sort((a, b) => order(a) - order(b));
}

/** The request that lists `d`: its own collection, or its parent's when embedded there. */
function listedThrough(d: KindDescriptor): KindDescriptor {
  return d.listMember === undefined && d.parent?.embeddedAs !== undefined ? descriptorOf(d.parent.kind) : d;
}

/**
 * Whether plans, exports and guards see `o`: the service's own objects (its default policies, ...)
 * are nobody's to change. Anything else acctsync keeps out of sight is one more condition here.
 */
function readable(o: LiveObject): boolean {
  return !isServiceOwned(descriptorOf(o.kind), o.record) && !isLeaseObject(o.kind, o.record);
}

/** Lists the collections a plan for `desired` can touch; each collection once, all pages. */
export function fetchLiveState(
  client: ApiClient,
  desired: DesiredState,
  options: FetchOptions = {},
): Promise<LiveState> {
  return readLiveState(client, kindsToFetch(desired, options), options);
}

/**
 * The one reader of the live account, for plans and exports alike: lists `kinds` (each collection
 * once, all pages; embedded children from their parent's records) and leaves out the service's own
 * objects and acctsync's scope leases (docs/lease.md).
 */
export async function readLiveState(
  client: ApiClient,
  wantedKinds: readonly KindName[],
  options: { readonly signal?: AbortSignal } = {},
): Promise<LiveState> {
  const kinds = sortKinds(wantedKinds);
  const lists = new Map<KindDescriptor, KindName[]>();
  for (const kind of kinds) {
    const via = listedThrough(descriptorOf(kind));
    lists.set(via, [...(lists.get(via) ?? []), kind]);
  }
  const listOptions = options.signal ? { signal: options.signal } : {};
  const results = await Promise.all(
    [...lists].map(async ([via, wanted]) => {
      const records = await client.listAll<Record<string, unknown>>(
        via.path,
        via.listMember ?? '',
        listOptions,
      );
      return objectsOf(via, records, new Set(wanted));
    }),
  );
  const order = kindOrder();
  const objects = results
    .flat()
    .filter(readable)
    .sort((a, b) => order(a.kind) - order(b.kind) || compare(a.id, b.id));
  return { kinds, objects };
}

/** The objects of `records` (and of the children they embed) whose kinds are `wanted`. */
function objectsOf(
  via: KindDescriptor,
  records: Record<string, unknown>[],
  wanted: Set<KindName>,
): LiveObject[] {
  const out: LiveObject[] = [];
  const embedded = managedDescriptors().filter(
    (c) => c.parent?.kind === via.kind && c.parent.embeddedAs !== undefined && wanted.has(c.kind),
  );
  for (const record of records) {
    if (wanted.has(via.kind)) out.push(liveObject(via, record));
    for (const child of embedded) {
      const items = record[child.parent?.embeddedAs ?? ''];
      if (!Array.isArray(items)) continue;
      for (const item of items) if (isPlainObject(item)) out.push(liveObject(child, item, String(record.id)));
    }
  }
  return out;
}
