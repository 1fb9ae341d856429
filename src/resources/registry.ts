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
import type { Field, FieldType, KindDescriptor, KindName, ModuleDescriptor } from './types.js';

export const descriptors: { readonly [K in KindName]-?: KindDescriptor & { readonly kind: K } } = {
  api_keys: { ...apiKeys, kind: 'api_keys' },
  credentials: { ...credentials, kind: 'credentials' },
  ssh_credentials: { ...sshCredentials, kind: 'ssh_credentials' },
  ip_policies: { ...ipPolicies, kind: 'ip_policies' },
  ip_policy_rules: { ...ipPolicyRules, kind: 'ip_policy_rules' },
  ip_restrictions: { ...ipRestrictions, kind: 'ip_restrictions' },
  reserved_addrs: { ...reservedAddrs, kind: 'reserved_addrs' },
  reserved_domains: { ...reservedDomains, kind: 'reserved_domains' },
  endpoint_configurations: { ...endpointConfigurations, kind: 'endpoint_configurations' },
  http_response_backends: { ...httpResponseBackends, kind: 'http_response_backends' },
  failover_backends: { ...failoverBackends, kind: 'failover_backends' },
  tunnel_group_backends: { ...tunnelGroupBackends, kind: 'tunnel_group_backends' },
  weighted_backends: { ...weightedBackends, kind: 'weighted_backends' },
  tls_edges: { ...tlsEdges, kind: 'tls_edges' },
  https_edges: { ...httpsEdges, kind: 'https_edges' },
  https_edge_routes: { ...httpsEdgeRoutes, kind: 'https_edge_routes' },
  agent_ingresses: { ...agentIngresses, kind: 'agent_ingresses' },
  certificate_authorities: { ...certificateAuthorities, kind: 'certificate_authorities' },
  tls_certificates: { ...tlsCertificates, kind: 'tls_certificates' },
  event_destinations: { ...eventDestinations, kind: 'event_destinations' },
  event_subscriptions: { ...eventSubscriptions, kind: 'event_subscriptions' },
  event_sources: { ...eventSources, kind: 'event_sources' },
  tunnel_sessions: { ...tunnelSessions, kind: 'tunnel_sessions' },
};

export const kindNames = Object.keys(descriptors) as KindName[];

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

/** The name a field has in request bodies. */
export function writeName(name: string, f: Field): string {
  return f.writeAs ?? name;
}

/** The name a field has in the desired-state YAML. */
export function configName(name: string, f: Field): string {
  return f.configAs ?? name;
}

/** Kinds a reference field can point at, if the field (or its map keys) is a reference. */
export function referenceTargets(type: FieldType): readonly KindName[] {
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
