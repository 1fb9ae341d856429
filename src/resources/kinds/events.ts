import { describable, field, readOnly, refs, refTo, t } from '../fields.js';
import { eventTargetFields } from '../event-target.js';
import { eventTargetExactlyOne } from '../rules.js';
import type { KindDescriptor } from '../types.js';
import { crud } from './common.js';

export const eventDestinations: KindDescriptor = {
  kind: 'event_destinations',
  title: 'event destination',
  titlePlural: 'event destinations',
  article: 'an',
  path: '/event_destinations',
  listMember: 'event_destinations',
  idPrefix: 'ed_',
  fields: {
    ...describable(),
    format: field(t.enumOf(['json']), 'Delivery format; only json.', { default: 'json' }),
    target: field(
      t.object(eventTargetFields, [eventTargetExactlyOne]),
      'Where events go: exactly one member.',
      {
        required: true,
      },
    ),
  },
  rules: [],
  operations: crud,
  eventStem: 'event_destination',
  config: { key: 'event_destinations' },
  hasCreatedAt: true,
};

const eventSourceType = field(t.string({ format: 'event-type' }), 'An event type (`ip_policy_created.v0`).', {
  write: 'immutable',
  required: true,
});

export const eventSubscriptions: KindDescriptor = {
  kind: 'event_subscriptions',
  title: 'event subscription',
  titlePlural: 'event subscriptions',
  article: 'an',
  path: '/event_subscriptions',
  listMember: 'event_subscriptions',
  idPrefix: 'esb_',
  fields: {
    ...describable('chars'),
    sources: field(
      t.list(t.object({ type: eventSourceType, uri: readOnly(t.string(), 'Address of the source.') })),
      'Event types the subscription triggers for.',
      { default: [] },
    ),
    destinations: refs(
      refTo('event_destinations'),
      'destination_ids',
      'Event destinations receiving the events.',
    ),
  },
  rules: [],
  operations: crud,
  eventStem: 'event_subscription',
  config: { key: 'event_subscriptions' },
  hasCreatedAt: true,
};

export const eventSources: KindDescriptor = {
  kind: 'event_sources',
  title: 'event source',
  titlePlural: 'event sources',
  article: 'an',
  path: '/event_subscriptions/{subscription_id}/sources',
  listMember: 'sources',
  pathKey: 'type',
  fields: { type: eventSourceType },
  rules: [],
  operations: crud,
  parent: { kind: 'event_subscriptions', via: 'path', field: 'subscription_id', embeddedAs: 'sources' },
  hasCreatedAt: false,
};
