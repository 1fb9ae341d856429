/** Response members computed at read time rather than stored. */
import type { KindName } from '../resources/index.js';
import type { Decorator } from './account.js';
import type { DecoratorInputs } from './response-cache.js';
import { sourceUri } from './event-sources.js';
import { matchingSessions } from './sessions.js';

export const decorators: Partial<Record<KindName, Decorator>> = {
  // A tunnel group's tunnels change as agents come and go, so they are matched on every read.
  tunnel_group_backends(out, record, account) {
    out.tunnels = matchingSessions(account, record.values.labels).map((id) => ({
      id,
      uri: account.uriOf(id),
    }));
  },
  event_subscriptions(out, record, account) {
    const sources = Array.isArray(record.values.sources)
      ? (record.values.sources as Array<{ type: string }>)
      : [];
    out.sources = sources.map((s) => ({ type: s.type, uri: sourceUri(account, record.id, s.type) }));
  },
};

/**
 * What each decorator reads besides its own record (responses are cached until one of these
 * changes): a tunnel group's `tunnels` follow every session that starts or stops; a subscription's
 * `sources` come from its own values.
 */
export const decoratorInputs: DecoratorInputs = {
  tunnel_group_backends: ['tunnel_sessions'],
  event_subscriptions: [],
};
