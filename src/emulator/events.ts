/**
 * Event deliveries: each event becomes one delivery per subscription listing its type, for each of
 * that subscription's destinations, with the gaps.md payload. Nothing is sent anywhere; the control
 * surface shows what would have been.
 */
import { eventType, type EventAction, type KindDescriptor } from '../resources/index.js';
import type { Account } from './account.js';
import type { DeliveredEvent } from './model.js';

/** Oldest deliveries are dropped beyond this, so a long run does not grow without bound. */
const MAX_DELIVERIES = 10_000;

/** Records the deliveries of one event of `type` about `object`. */
export function publish(account: Account, type: string, object: unknown): void {
  let event: DeliveredEvent | undefined;
  for (const subscription of account.collection('event_subscriptions').all()) {
    const sources = subscription.values.sources;
    if (!Array.isArray(sources) || !sources.some((s: { type?: unknown }) => s.type === type)) continue;
    event ??= {
      event_id: account.ids.next('ev_'),
      event_type: type,
      event_timestamp: account.timestamp(),
      object,
    };
    const destinations = subscription.values.destinations;
    for (const destination of Array.isArray(destinations) ? destinations : []) {
      account.deliveries.push({
        subscription_id: subscription.id,
        destination_id: String(destination),
        event,
      });
    }
  }
  const excess = account.deliveries.length - MAX_DELIVERIES;
  if (excess > 0) account.deliveries.splice(0, excess);
}

/** The event of a write to an object of a kind that emits events (`ip_policy_created.v0`). */
export function publishWrite(
  account: Account,
  d: KindDescriptor,
  action: EventAction,
  object: unknown,
): void {
  if (d.eventStem !== undefined) publish(account, eventType(d.eventStem, action), object);
}
