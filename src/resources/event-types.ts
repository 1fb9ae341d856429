/** Event types the service knows (gaps.md "Events"); any other type is refused with 238. */
const stems = [
  'ip_policy',
  'ip_policy_rule',
  'ip_restriction',
  'api_key',
  'certificate_authority',
  'tls_certificate',
  'domain',
  'tcp_address',
  'tunnel_credential',
  'ssh_public_key',
  'event_destination',
  'event_subscription',
] as const;

/** The stem of a kind's event types: only those the service knows. */
export type EventStem = (typeof stems)[number];

export type EventAction = 'created' | 'updated' | 'deleted';

/** `ip_policy_created.v0` from a descriptor's event stem and an action. */
export function eventType(stem: EventStem, action: EventAction): string {
  return `${stem}_${action}.v0`;
}

const eventTypes: readonly string[] = [
  ...stems.flatMap((stem) => (['created', 'updated', 'deleted'] as const).map((a) => eventType(stem, a))),
  'agent_session_start.v0',
  'agent_session_stop.v0',
];

const known = new Set(eventTypes);

export function isEventType(value: string): boolean {
  return known.has(value);
}
