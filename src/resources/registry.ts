/** Every kind, keyed by name. The mapped type makes a missing descriptor a compile error. */
import {
  httpResponseBackends,
  failoverBackends,
  tunnelGroupBackends,
  weightedBackends,
} from './kinds/backends.js';
import { agentIngresses, certificateAuthorities, tlsCertificates } from './kinds/certificates.js';
import { apiKeys, credentials, sshCredentials } from './kinds/credentials.js';
import { httpsEdgeRoutes, httpsEdges, tlsEdges } from './kinds/edges.js';
import { eventDestinations, eventSources, eventSubscriptions } from './kinds/events.js';
import { ipPolicies, ipPolicyRules, ipRestrictions } from './kinds/ip.js';
import { endpointConfigurations, reservedAddrs, reservedDomains } from './kinds/reserved.js';
import { tunnelSessions } from './kinds/sessions.js';
import type { Field, FieldType, Fields, KindDescriptor, KindName, ModuleDescriptor } from './types.js';

/**
 * A copy of a field table, and of every table nested in it, without a prototype: callers look
 * fields up by names that come from user input (`fields[name]`), and `constructor` or `__proto__`
 * must then be unknown fields, not members of `Object.prototype`.
 */
function ownFields(fields: Fields): Fields {
  const out = Object.create(null) as Record<string, Field>;
  for (const [name, f] of Object.entries(fields)) out[name] = { ...f, type: ownType(f.type) };
  return out;
}

function ownType(type: FieldType): FieldType {
  switch (type.type) {
    case 'object':
      return { ...type, fields: ownFields(type.fields) };
    case 'module':
      return { ...type, module: { ...type.module, fields: ownFields(type.module.fields) } };
    case 'list':
      return { ...type, items: ownType(type.items) };
    case 'map':
      return { ...type, values: ownType(type.values) };
    default:
      return type;
  }
}

/** The fields of `fields` that `keep` accepts, as a table without a prototype like the others. */
export function pickFields(fields: Fields, keep: (name: string, f: Field) => boolean): Fields {
  const out = Object.create(null) as Record<string, Field>;
  for (const [name, f] of Object.entries(fields)) if (keep(name, f)) out[name] = f;
  return out;
}

function described<K extends KindName>(kind: K, d: KindDescriptor): KindDescriptor & { readonly kind: K } {
  return { ...d, kind, fields: ownFields(d.fields) };
}

export const descriptors: { readonly [K in KindName]-?: KindDescriptor & { readonly kind: K } } = {
  api_keys: described('api_keys', apiKeys),
  credentials: described('credentials', credentials),
  ssh_credentials: described('ssh_credentials', sshCredentials),
  ip_policies: described('ip_policies', ipPolicies),
  ip_policy_rules: described('ip_policy_rules', ipPolicyRules),
  ip_restrictions: described('ip_restrictions', ipRestrictions),
  reserved_addrs: described('reserved_addrs', reservedAddrs),
  reserved_domains: described('reserved_domains', reservedDomains),
  endpoint_configurations: described('endpoint_configurations', endpointConfigurations),
  http_response_backends: described('http_response_backends', httpResponseBackends),
  failover_backends: described('failover_backends', failoverBackends),
  tunnel_group_backends: described('tunnel_group_backends', tunnelGroupBackends),
  weighted_backends: described('weighted_backends', weightedBackends),
  tls_edges: described('tls_edges', tlsEdges),
  https_edges: described('https_edges', httpsEdges),
  https_edge_routes: described('https_edge_routes', httpsEdgeRoutes),
  agent_ingresses: described('agent_ingresses', agentIngresses),
  certificate_authorities: described('certificate_authorities', certificateAuthorities),
  tls_certificates: described('tls_certificates', tlsCertificates),
  event_destinations: described('event_destinations', eventDestinations),
  event_subscriptions: described('event_subscriptions', eventSubscriptions),
  event_sources: described('event_sources', eventSources),
  tunnel_sessions: described('tunnel_sessions', tunnelSessions),
};

export const allDescriptors: readonly KindDescriptor[] = Object.values(descriptors);

/** Kinds users write in the desired-state YAML, in the order the config documents them. */
export const managedDescriptors: readonly KindDescriptor[] = allDescriptors.filter(
  (d) => d.config !== undefined,
);

export function descriptorOf(kind: KindName): KindDescriptor {
  return descriptors[kind];
}

export function isKindName(value: string): value is KindName {
  return Object.hasOwn(descriptors, value);
}

const byPrefix = new Map(
  allDescriptors.flatMap((d) => (d.idPrefix === undefined ? [] : [[d.idPrefix, d] as const])),
);

/** The kind an id belongs to, from its prefix (`ipp_...` → IP policies); undefined for foreign ids. */
export function descriptorOfId(id: string): KindDescriptor | undefined {
  const underscore = id.indexOf('_');
  return underscore <= 0 ? undefined : byPrefix.get(id.slice(0, underscore + 1));
}

/** The module fields of a kind (edge and route modules), keyed by member name. */
export function moduleFields(d: KindDescriptor): Array<[string, ModuleDescriptor]> {
  return Object.entries(d.fields).flatMap(([name, f]) =>
    f.type.type === 'module' ? [[name, f.type.module]] : [],
  );
}

/** Kinds a reference field can point at, if the field (or its map keys) is a reference. */
function referenceTargets(type: FieldType): readonly KindName[] {
  if (type.type === 'ref') return type.target.kinds;
  if (type.type === 'map' && type.keyRef) return type.keyRef.kinds;
  return [];
}

/** Kinds this kind references anywhere in its writable fields, modules included: the dependency edges. */
export function referencedKinds(d: KindDescriptor): Set<KindName> {
  const out = new Set<KindName>();
  const walk = (type: FieldType): void => {
    for (const k of referenceTargets(type)) out.add(k);
    if (type.type === 'object') Object.values(type.fields).forEach((f) => walk(f.type));
    if (type.type === 'module') Object.values(type.module.fields).forEach((f) => walk(f.type));
    if (type.type === 'list') walk(type.items);
    if (type.type === 'map') walk(type.values);
  };
  for (const f of Object.values(d.fields)) if (f.write !== 'read-only') walk(f.type);
  return out;
}

/** Whether a live record is the service's own object (see `serviceOwnedWhenSet`). */
export function isServiceOwned(d: KindDescriptor, record: Readonly<Record<string, unknown>>): boolean {
  const member = d.serviceOwnedWhenSet;
  return member !== undefined && record[member] !== null && record[member] !== undefined;
}
