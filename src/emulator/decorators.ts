/** Response members computed at read time rather than stored; `kind-behaviour.ts` says whose. */
import type { StoredRecord } from './collection.js';
import type { Account } from './account.js';
import { sourceUri } from './event-sources.js';
import { matchingSessions } from './sessions.js';

/** A tunnel group's tunnels change as agents come and go, so they are matched on every read. */
export function tunnelGroupTunnels(
  out: Record<string, unknown>,
  record: StoredRecord,
  account: Account,
): void {
  out.tunnels = matchingSessions(account, record.values.labels).map((id) => ({
    id,
    uri: account.uriOf(id),
  }));
}

/** A subscription's sources, each with its own address. */
export function subscriptionSources(
  out: Record<string, unknown>,
  record: StoredRecord,
  account: Account,
): void {
  const sources = Array.isArray(record.values.sources)
    ? (record.values.sources as Array<{ type: string }>)
    : [];
  out.sources = sources.map((s) => ({ type: s.type, uri: sourceUri(account, record.id, s.type) }));
}
