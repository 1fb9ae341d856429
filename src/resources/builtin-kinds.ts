/** The kinds this build describes, one descriptor each, with their field tables made prototype-free. */
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
import { ownFields } from './own-fields.js';
import type { BuiltInKindName, KindDescriptor } from './types.js';

function described<K extends BuiltInKindName>(
  kind: K,
  d: KindDescriptor,
): KindDescriptor & { readonly kind: K } {
  return { ...d, kind, fields: ownFields(d.fields) };
}

/** Every built-in kind, keyed by name. The mapped type makes a missing descriptor a compile error. */
export const descriptors: { readonly [K in BuiltInKindName]-?: KindDescriptor & { readonly kind: K } } = {
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
