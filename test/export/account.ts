/**
 * Objects of kinds without a natural key carry a description: the planner adopts those by
 * description only, so without one no tool could tell which live object a config entry means.
 *
 * An account populated through the API directly, the way a team clicks one together: every managed
 * kind, modules on edges and routes, references between objects, secrets the API never returns,
 * an object another scope manages and one this scope already manages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiClient } from '../../src/api/index.js';
import { formatMetadata } from '../../src/resources/ownership/marker.js';

const pki = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../fixtures/pki', name), 'utf8');

type Created = { id: string } & Record<string, unknown>;

/** The ids of what `populate` created, by role. */
export interface Populated {
  readonly office: string;
  readonly otherScopePolicy: string;
  readonly cert: string;
  readonly ca: string;
  readonly endpointConfiguration: string;
  readonly tunnelGroup: string;
  readonly httpsEdge: string;
}

export async function populate(client: ApiClient): Promise<Populated> {
  const post = async (path: string, body: unknown): Promise<Created> =>
    (await client.post<Created>(path, body)).body;

  await post('/api_keys', { description: 'CI deploy key', metadata: '{"team":"ops"}' });
  await post('/credentials', { description: 'Edge agents', acl: ['bind:*.example.com'] });
  await post('/ssh_credentials', {
    public_key: pki('ssh-ed25519.pub').trim(),
    acl: ['bind:ssh.example.com'],
  });

  const office = await post('/ip_policies', { description: 'Office', metadata: 'plain text note' });
  await post('/ip_policy_rules', { ip_policy_id: office.id, cidr: '10.0.0.0/8', action: 'allow' });
  await post('/ip_policy_rules', {
    ip_policy_id: office.id,
    cidr: '192.168.1.0/24',
    action: 'deny',
    description: 'guest wifi',
  });
  const otherScopePolicy = await post('/ip_policies', {
    description: 'Theirs',
    metadata: formatMetadata('', { scope: 'other-team', key: 'ip_policies/theirs' }),
  });
  await post('/ip_policies', {
    description: 'Partners office',
    metadata: formatMetadata('{"owner":"sales"}', { scope: 'default', key: 'ip_policies/partners' }),
  });
  await post('/ip_restrictions', {
    description: 'Dashboard from the office',
    type: 'dashboard',
    enforced: true,
    ip_policy_ids: [office.id],
  });

  const endpointConfiguration = await post('/endpoint_configurations', {
    type: 'tcp',
    description: 'legacy',
  });
  const addr = await post('/reserved_addrs', { description: 'SSH bastion', region: 'eu' });
  await client.patch(`/reserved_addrs/${addr.id}`, { endpoint_configuration_id: endpointConfiguration.id });

  const ca = await post('/certificate_authorities', { ca_pem: pki('ca.crt') });
  const cert = await post('/tls_certificates', {
    certificate_pem: pki('leaf-rsa.crt'),
    private_key_pem: pki('leaf-rsa.key'),
  });
  await post('/reserved_domains', { domain: 'api.example.com', certificate_id: cert.id });
  await post('/reserved_domains', {
    domain: 'app.example.com',
    certificate_management_policy: { authority: 'public_acme_ca', private_key_type: 'ecdsa' },
  });
  await post('/agent_ingresses', { domain: 'tunnel.example.com', description: 'Agent ingress' });

  const maintenance = await post('/backends/http_response', {
    description: 'Maintenance page',
    body: 'down for maintenance',
    status_code: 503,
    headers: { 'Content-Type': 'text/plain' },
  });
  const tunnelGroup = await post('/backends/tunnel_group', {
    description: 'Web agents',
    labels: { app: 'web' },
  });
  const failover = await post('/backends/failover', {
    description: 'Web with fallback',
    backends: [tunnelGroup.id, maintenance.id],
  });
  await post('/backends/weighted', {
    description: 'Canary',
    backends: { [tunnelGroup.id]: 90, [maintenance.id]: 10 },
  });

  await post('/edges/tls', {
    hostports: ['tls.example.com:443'],
    backend: { enabled: true, backend_id: tunnelGroup.id },
    ip_restriction: { ip_policy_ids: [office.id] },
    mutual_tls: { certificate_authority_ids: [ca.id] },
    tls_termination: { terminate_at: 'edge', min_version: '1.2' },
    policy: {
      inbound: [{ name: 'log all', expressions: [], actions: [{ type: 'log', config: { metadata: {} } }] }],
    },
  });
  const httpsEdge = await post('/edges/https', {
    description: 'Web',
    hostports: ['web.example.com:443'],
    mutual_tls: { certificate_authority_ids: [ca.id] },
    tls_termination: { min_version: '1.3' },
  });
  const routes = `/edges/https/${httpsEdge.id}/routes`;
  await post(routes, {
    match_type: 'path_prefix',
    match: '/',
    backend: { backend_id: failover.id },
    circuit_breaker: {
      tripped_duration: 30,
      rolling_window: 60,
      num_buckets: 10,
      error_threshold_percentage: 0.5,
    },
    oidc: {
      issuer: 'https://id.example.com',
      client_id: 'web',
      client_secret: 'oidc-secret',
      scopes: ['openid'],
    },
  });
  await post(routes, {
    match_type: 'exact_path',
    match: '/admin',
    backend: { backend_id: maintenance.id },
    ip_restriction: { ip_policy_ids: [office.id] },
    oauth: {
      provider: {
        provider_b: { client_id: 'admin', client_secret: 'oauth-secret', email_domains: ['example.com'] },
      },
    },
  });
  await post(routes, {
    match_type: 'path_prefix',
    match: '/team',
    oauth: { provider: { provider_a: { teams: ['acme/ops'] } }, auth_check_interval: 300 },
    saml: { idp_metadata: '<EntityDescriptor/>', force_authn: true },
  });

  const logs = await post('/event_destinations', {
    description: 'Audit logs',
    target: {
      delivery_stream: {
        auth: { creds: { cloud_access_key_id: 'AKIDEXAMPLE', cloud_secret_access_key: 'cloud-secret' } },
        delivery_stream_arn: 'arn:aws:firehose:us-east-1:123456789012:deliverystream/audit',
      },
    },
  });
  const monitoring = await post('/event_destinations', {
    description: 'Monitoring',
    target: { monitoring: { api_key: 'monitoring-secret', site: 'example.com' } },
  });
  await post('/event_subscriptions', {
    description: 'Policy changes',
    sources: [{ type: 'ip_policy_created.v0' }, { type: 'ip_policy_updated.v0' }],
    destination_ids: [logs.id, monitoring.id],
  });

  return {
    office: office.id,
    otherScopePolicy: otherScopePolicy.id,
    cert: cert.id,
    ca: ca.id,
    endpointConfiguration: endpointConfiguration.id,
    tunnelGroup: tunnelGroup.id,
    httpsEdge: httpsEdge.id,
  };
}

/** The secrets `populate` wrote, by the variable the export names for each. */
export function secretsEnv(): Record<string, string> {
  return {
    ACCTSYNC_TLS_CERTIFICATES_API_EXAMPLE_COM_PRIVATE_KEY_PEM: pki('leaf-rsa.key'),
    ACCTSYNC_HTTPS_EDGES_WEB_ROUTES_PATH_PREFIX_OIDC_CLIENT_SECRET: 'oidc-secret',
    ACCTSYNC_HTTPS_EDGES_WEB_ROUTES_EXACT_PATH_ADMIN_OAUTH_PROVIDER_PROVIDER_B_CLIENT_SECRET: 'oauth-secret',
    ACCTSYNC_EVENT_DESTINATIONS_AUDIT_LOGS_TARGET_DELIVERY_STREAM_AUTH_CREDS_CLOUD_SECRET_ACCESS_KEY:
      'cloud-secret',
    ACCTSYNC_EVENT_DESTINATIONS_MONITORING_TARGET_MONITORING_API_KEY: 'monitoring-secret',
  };
}
