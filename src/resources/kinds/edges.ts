import { describable, field, t } from '../fields.js';
import {
  backendModule,
  circuitBreakerModule,
  httpsEdgeTlsTerminationModule,
  ipRestrictionModule,
  mutualTlsModule,
  oauthModule,
  oidcModule,
  policyModule,
  samlModule,
  tlsEdgeTlsTerminationModule,
} from '../modules.js';
import { upstreamTerminationDisallowsModules } from '../rules.js';
import { ErrorCode } from '../error-codes.js';
import type { KindDescriptor } from '../types.js';
import { crud, moduleField } from './common.js';

const hostports = field(t.list(t.string({ format: 'hostport' })), 'Hostports served (`host:port`).', {
  default: [],
});

export const tlsEdges: KindDescriptor = {
  kind: 'tls_edges',
  title: 'TLS edge',
  titlePlural: 'TLS edges',
  article: 'a',
  path: '/edges/tls',
  listMember: 'tls_edges',
  idPrefix: 'edgtls_',
  fields: {
    ...describable(),
    hostports,
    backend: moduleField(backendModule),
    ip_restriction: moduleField(ipRestrictionModule),
    mutual_tls: moduleField(mutualTlsModule),
    tls_termination: moduleField(tlsEdgeTlsTerminationModule),
    policy: moduleField(policyModule),
  },
  rules: [upstreamTerminationDisallowsModules],
  operations: crud,
  naturalKey: { fields: ['hostports'], claim: { space: 'hostport', code: ErrorCode.hostportInUse } },
  config: { key: 'tls_edges' },
  hasCreatedAt: true,
};

export const httpsEdges: KindDescriptor = {
  kind: 'https_edges',
  title: 'HTTPS edge',
  titlePlural: 'HTTPS edges',
  article: 'an',
  path: '/edges/https',
  listMember: 'https_edges',
  idPrefix: 'edghts_',
  fields: {
    ...describable(),
    hostports,
    mutual_tls: moduleField(mutualTlsModule),
    tls_termination: moduleField(httpsEdgeTlsTerminationModule),
  },
  rules: [],
  operations: crud,
  naturalKey: { fields: ['hostports'], claim: { space: 'hostport', code: ErrorCode.hostportInUse } },
  config: { key: 'https_edges' },
  hasCreatedAt: true,
};

export const httpsEdgeRoutes: KindDescriptor = {
  kind: 'https_edge_routes',
  title: 'HTTPS edge route',
  titlePlural: 'HTTPS edge routes',
  article: 'an',
  path: '/edges/https/{edge_id}/routes',
  idPrefix: 'edghtsrt_',
  fields: {
    ...describable(),
    match_type: field(
      t.enumOf(['exact_path', 'path_prefix']),
      'How `match` is compared with the request path.',
      {
        required: true,
      },
    ),
    match: field(t.string({ minLength: 1 }), 'The path (or prefix) the route serves.', { required: true }),
    backend: moduleField(backendModule),
    ip_restriction: moduleField(ipRestrictionModule),
    circuit_breaker: moduleField(circuitBreakerModule),
    oidc: moduleField(oidcModule),
    saml: moduleField(samlModule),
    oauth: moduleField(oauthModule),
  },
  rules: [],
  operations: { create: true, list: false, get: true, update: true, delete: true },
  parent: { kind: 'https_edges', via: 'path', field: 'edge_id', embeddedAs: 'routes' },
  naturalKey: {
    fields: ['match_type', 'match'],
    perParent: true,
    claim: { space: 'route_match', code: ErrorCode.routeMatchExists },
  },
  config: { key: 'https_edges', nestedIn: { parentKind: 'https_edges', member: 'routes' } },
  hasCreatedAt: true,
};
