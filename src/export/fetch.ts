/**
 * Reads the live objects of the kinds being exported: each collection listed once (all pages), and
 * children that the API embeds in their parent (HTTPS edge routes) taken from the parent's record
 * rather than fetched again.
 */
import type { ApiClient } from '../api/index.js';
import { isServiceOwned, type KindDescriptor, type KindName } from '../resources/index.js';

/** An API record as returned by a list: response names, references as `Ref`s. */
export type LiveRecord = Readonly<Record<string, unknown>> & { readonly id: string };

/** Live records by kind, each list sorted by id (creation order) so output never depends on paging. */
export type LiveAccount = ReadonlyMap<KindName, readonly LiveRecord[]>;

function isRecord(value: unknown): value is LiveRecord {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}

function byId(a: LiveRecord, b: LiveRecord): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Children embedded in their parent's records (`routes` of HTTPS edges), in the order the parent
 * lists them, each stamped with its parent's id so nesting never depends on the embedded copy.
 */
function embeddedChildren(d: KindDescriptor, parents: readonly LiveRecord[]): LiveRecord[] {
  const link = d.parent;
  if (link?.embeddedAs === undefined) return [];
  const member = link.embeddedAs;
  return parents.flatMap((p) => {
    const children = p[member];
    if (!Array.isArray(children)) return [];
    return children.filter(isRecord).map((c) => ({ ...c, [link.field]: p.id }));
  });
}

/** The id of the parent a child record belongs to (`edge_id`, or the `ip_policy` Ref). */
export function parentIdOf(d: KindDescriptor, record: LiveRecord): string | undefined {
  if (d.parent === undefined) return undefined;
  const value = record[d.parent.field];
  if (typeof value === 'string') return value;
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Lists every kind of `kinds` once, in parallel (the client caps requests in flight). Kinds whose
 * path needs a parent id and whose parent embeds them are read from the parent's records.
 */
export async function fetchAccount(
  client: ApiClient,
  kinds: readonly KindDescriptor[],
): Promise<LiveAccount> {
  const listed = kinds.filter(
    (d) => d.operations.list && d.listMember !== undefined && !d.path.includes('{'),
  );
  const lists = await Promise.all(
    listed.map(async (d) => {
      const items = await client.listAll<unknown>(d.path, d.listMember ?? '');
      const own = items.filter(isRecord).filter((r) => !isServiceOwned(d, r));
      return [d.kind, own.sort(byId)] as const;
    }),
  );
  const account = new Map<KindName, readonly LiveRecord[]>(lists);
  for (const d of kinds) {
    if (account.has(d.kind) || d.parent === undefined) continue;
    account.set(d.kind, embeddedChildren(d, account.get(d.parent.kind) ?? []));
  }
  return account;
}
