/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- responses are arbitrary JSON read member by member */
import { beforeAll, describe, expect, it } from 'vitest';
import { leafEcdsaPem, leafRsaKey, leafRsaPem, sshEd25519, unrelatedKey } from './fixtures.js';
import { useEmulator } from './harness.js';

const h = useEmulator();
let policy = '';
let backend = '';
let cert = '';
let route = '';

beforeAll(async () => {
  policy = (await h.call('POST', '/ip_policies', {})).body.id;
  backend = (await h.call('POST', '/backends/http_response', { status_code: 200 })).body.id;
  cert = (
    await h.call('POST', '/tls_certificates', { certificate_pem: leafRsaPem, private_key_pem: leafRsaKey })
  ).body.id;
  const edge = (await h.call('POST', '/edges/https', { hostports: ['rules.example.com:443'] })).body.id;
  route = `/edges/https/${edge}/routes/${(await h.call('POST', `/edges/https/${edge}/routes`, { match_type: 'exact_path', match: '/r' })).body.id}`;
});

const long = (n: number): string => 'a'.repeat(n);
const target = (t: Record<string, unknown>) => ({ target: t });
const role = { role: { role_arn: 'arn:r' } };
const creds = { creds: { cloud_access_key_id: 'a', cloud_secret_access_key: 'b' } };
const oauth = (provider: Record<string, unknown>) => ({ provider: { provider_b: provider } });

/** [rule, method, path, accepted body, rejected body, rejected status, rejected code] */
type Case = [string, string, () => string, () => unknown, () => unknown, number, number];
const cases: Case[] = [
  [
    'region enum',
    'POST',
    () => '/reserved_addrs',
    () => ({ region: 'au' }),
    () => ({ region: 'mars' }),
    400,
    215,
  ],
  [
    'restriction type enum',
    'POST',
    () => '/ip_restrictions',
    () => ({ type: 'dashboard' }),
    () => ({ type: 'web' }),
    400,
    215,
  ],
  [
    'action enum',
    'POST',
    () => '/ip_policy_rules',
    () => ({ cidr: '10.9.0.0/16', ip_policy_id: policy, action: 'allow' }),
    () => ({ cidr: '10.8.0.0/16', ip_policy_id: policy, action: 'maybe' }),
    400,
    215,
  ],
  [
    'terminate_at enum',
    'POST',
    () => '/edges/tls',
    () => ({ tls_termination: { terminate_at: 'upstream' } }),
    () => ({ tls_termination: { terminate_at: 'middle' } }),
    400,
    215,
  ],
  [
    'authority enum',
    'POST',
    () => '/agent_ingresses',
    () => ({ domain: 'a1.example.net', certificate_management_policy: { authority: 'public_acme_ca' } }),
    () => ({ domain: 'a2.example.net', certificate_management_policy: { authority: 'other' } }),
    400,
    215,
  ],
  [
    'private_key_type enum',
    'POST',
    () => '/reserved_domains',
    () => ({ domain: 'k1.example.net', certificate_management_policy: { private_key_type: 'ecdsa' } }),
    () => ({ domain: 'k2.example.net', certificate_management_policy: { private_key_type: 'dsa' } }),
    400,
    215,
  ],
  [
    'format json only',
    'POST',
    () => '/event_destinations',
    () => ({ format: 'json', ...target({ log_group: { auth: role, log_group_arn: 'arn:l' } }) }),
    () => ({ format: 'xml', ...target({ log_group: { auth: role, log_group_arn: 'arn:l' } }) }),
    400,
    215,
  ],
  [
    'match_type enum',
    'POST',
    () => `${route.replace(/\/routes\/.*/, '')}/routes`,
    () => ({ match_type: 'path_prefix', match: '/p' }),
    () => ({ match_type: 'regex', match: '/p' }),
    400,
    215,
  ],
  [
    'nameid_format enum',
    'PUT',
    () => `${route}/saml`,
    () => ({ nameid_format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient' }),
    () => ({ nameid_format: 'urn:nope' }),
    400,
    215,
  ],
  [
    'description 255 bytes',
    'POST',
    () => '/ip_policies',
    () => ({ description: long(255) }),
    () => ({ description: 'é'.repeat(128) }),
    400,
    420,
  ],
  [
    'subscription description 255 chars',
    'POST',
    () => '/event_subscriptions',
    () => ({ description: 'é'.repeat(255) }),
    () => ({ description: long(256) }),
    400,
    420,
  ],
  [
    'metadata 4096 bytes',
    'POST',
    () => '/ip_policies',
    () => ({ metadata: long(4096) }),
    () => ({ metadata: long(4097) }),
    400,
    421,
  ],
  [
    'subscription metadata 4096 chars',
    'POST',
    () => '/event_subscriptions',
    () => ({ metadata: 'é'.repeat(4096) }),
    () => ({ metadata: long(4097) }),
    400,
    421,
  ],
  [
    'weights 0..10000',
    'POST',
    () => '/backends/weighted',
    () => ({ backends: { [backend]: 10000 } }),
    () => ({ backends: { [backend]: 10001 } }),
    400,
    215,
  ],
  [
    'num_buckets <= 128',
    'PUT',
    () => `${route}/circuit_breaker`,
    () => ({ num_buckets: 128 }),
    () => ({ num_buckets: 129 }),
    400,
    215,
  ],
  [
    'error_threshold_percentage 0..1',
    'PUT',
    () => `${route}/circuit_breaker`,
    () => ({ error_threshold_percentage: 1 }),
    () => ({ error_threshold_percentage: 50 }),
    400,
    7011,
  ],
  [
    'certificate_id vs policy',
    'POST',
    () => '/reserved_domains',
    () => ({ domain: 'c1.example.net', certificate_id: cert }),
    () => ({ domain: 'c2.example.net', certificate_id: cert, certificate_management_policy: {} }),
    400,
    218,
  ],
  [
    'upstream without min_version',
    'POST',
    () => '/edges/tls',
    () => ({ tls_termination: { terminate_at: 'upstream', min_version: null } }),
    () => ({ tls_termination: { terminate_at: 'upstream', min_version: '1.2' } }),
    400,
    218,
  ],
  [
    'upstream disallows modules',
    'POST',
    () => '/edges/tls',
    () => ({ tls_termination: { terminate_at: 'edge' }, policy: { inbound: [] } }),
    () => ({ tls_termination: { terminate_at: 'upstream' }, policy: { inbound: [] } }),
    400,
    218,
  ],
  [
    'OAuth scopes need id and secret',
    'PUT',
    () => `${route}/oauth`,
    () => oauth({ client_id: 'i', client_secret: 's', scopes: ['a'] }),
    () => oauth({ scopes: ['a'] }),
    400,
    218,
  ],
  [
    'OAuth client_id needs client_secret',
    'PUT',
    () => `${route}/oauth`,
    () => oauth({}),
    () => oauth({ client_id: 'i' }),
    400,
    218,
  ],
  [
    'OAuth exactly one provider',
    'PUT',
    () => `${route}/oauth`,
    () => ({ provider: { provider_a: {} } }),
    () => ({ provider: { provider_a: {}, provider_c: {} } }),
    400,
    218,
  ],
  [
    'exactly one event target',
    'POST',
    () => '/event_destinations',
    () => target({ data_stream: { auth: creds, stream_arn: 'arn:s' } }),
    () =>
      target({
        data_stream: { auth: creds, stream_arn: 'a' },
        log_group: { auth: role, log_group_arn: 'b' },
      }),
    400,
    218,
  ],
  [
    'exactly one of role or creds',
    'POST',
    () => '/event_destinations',
    () => target({ delivery_stream: { auth: role, delivery_stream_arn: 'arn:d' } }),
    () => target({ delivery_stream: { auth: { ...role, ...creds }, delivery_stream_arn: 'arn:d' } }),
    400,
    218,
  ],
  [
    'CIDR IPv4',
    'POST',
    () => '/ip_policy_rules',
    () => ({ cidr: '192.0.2.0/24', ip_policy_id: policy, action: 'deny' }),
    () => ({ cidr: '192.0.2.0/33', ip_policy_id: policy, action: 'deny' }),
    400,
    215,
  ],
  [
    'CIDR IPv6',
    'POST',
    () => '/ip_policy_rules',
    () => ({ cidr: '2001:db8::/32', ip_policy_id: policy, action: 'deny' }),
    () => ({ cidr: '2001:db8::zz/32', ip_policy_id: policy, action: 'deny' }),
    400,
    215,
  ],
  [
    'ACL bind domain',
    'POST',
    () => '/credentials',
    () => ({ acl: ['bind:app.example.com'] }),
    () => ({ acl: ['listen:app.example.com'] }),
    400,
    215,
  ],
  [
    'ACL wildcard suffix',
    'POST',
    () => '/credentials',
    () => ({ acl: ['bind:*.example.com'] }),
    () => ({ acl: ['bind:a.*.example.com'] }),
    400,
    215,
  ],
  [
    'ACL label wildcards',
    'POST',
    () => '/credentials',
    () => ({ acl: ['bind:*=prod', 'bind:env=*'] }),
    () => ({ acl: ['bind:=prod'] }),
    400,
    215,
  ],
  ['ACL star', 'POST', () => '/credentials', () => ({ acl: ['*'] }), () => ({ acl: ['**'] }), 400, 215],
  [
    'SSH public key',
    'POST',
    () => '/ssh_credentials',
    () => ({ public_key: sshEd25519 }),
    () => ({ public_key: 'ssh-ed25519 AAAAnotakey' }),
    400,
    215,
  ],
  [
    'private key must match',
    'POST',
    () => '/tls_certificates',
    () => ({ certificate_pem: leafRsaPem, private_key_pem: leafRsaKey }),
    () => ({ certificate_pem: leafEcdsaPem, private_key_pem: unrelatedKey }),
    400,
    215,
  ],
  [
    'unknown event type',
    'POST',
    () => '/event_subscriptions',
    () => ({ sources: [{ type: 'agent_session_start.v0' }] }),
    () => ({ sources: [{ type: 'nope.v0' }] }),
    400,
    238,
  ],
  [
    'types',
    'POST',
    () => '/ip_restrictions',
    () => ({ type: 'agent', enforced: true }),
    () => ({ type: 'agent', enforced: 'yes' }),
    400,
    215,
  ],
  [
    'required member',
    'POST',
    () => '/backends/http_response',
    () => ({ status_code: 201 }),
    () => ({ body: 'x' }),
    400,
    218,
  ],
  [
    'wrong id prefix',
    'POST',
    () => '/ip_restrictions',
    () => ({ type: 'api', ip_policy_ids: [policy] }),
    () => ({ type: 'api', ip_policy_ids: [backend] }),
    400,
    227,
  ],
  [
    'immutable on PATCH',
    'PATCH',
    () => `/ip_policy_rules/${policyRule}`,
    () => ({ cidr: '10.77.0.0/16' }),
    () => ({ action: 'allow' }),
    400,
    214,
  ],
];
let policyRule = '';

describe('rules', () => {
  beforeAll(async () => {
    policyRule = (
      await h.call('POST', '/ip_policy_rules', { cidr: '10.66.0.0/16', ip_policy_id: policy, action: 'deny' })
    ).body.id;
  });

  it.each(cases)('%s', async (_rule, method, path, accepted, rejected, status, code) => {
    const ok = await h.call(method, path(), accepted());
    expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
    const bad = await h.call(method, path(), rejected());
    expect(bad.status, JSON.stringify(bad.body)).toBe(status);
    expect(bad.body.error_code).toBe(`ERR_SVC_${code}`);
  });
});
