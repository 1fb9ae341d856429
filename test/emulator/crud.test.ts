/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
import { describe, expect, it } from 'vitest';
import { caPem, leafRsaKey, leafRsaPem, monitoringTarget, sshEd25519 } from './fixtures.js';
import { useEmulator, type Harness } from './harness.js';

const h = useEmulator();

/** A valid create body for each collection, dependencies created on the way. */
async function bodies(
  h: Harness,
): Promise<Array<[string, string, Record<string, unknown>, Record<string, unknown>]>> {
  const policy = (await h.call('POST', '/ip_policies', {})).body.id as string;
  const destination = (await h.call('POST', '/event_destinations', { target: monitoringTarget })).body
    .id as string;
  return [
    ['/api_keys', 'keys', { description: 'k' }, { description: 'k2' }],
    ['/ip_policies', 'ip_policies', { description: 'p' }, { metadata: 'm' }],
    ['/ip_restrictions', 'ip_restrictions', { type: 'api', ip_policy_ids: [policy] }, { enforced: true }],
    [
      '/ip_policy_rules',
      'ip_policy_rules',
      { cidr: '10.1.0.0/16', ip_policy_id: policy, action: 'deny' },
      { cidr: '10.2.0.0/16' },
    ],
    ['/reserved_addrs', 'reserved_addrs', { region: 'eu' }, { description: 'a' }],
    ['/backends/http_response', 'backends', { body: 'hi', status_code: 200 }, { status_code: 404 }],
    ['/backends/failover', 'backends', { backends: [] }, { description: 'f' }],
    ['/backends/tunnel_group', 'backends', { labels: { app: 'x' } }, { labels: { app: 'y' } }],
    ['/backends/weighted', 'backends', { backends: {} }, { description: 'w' }],
    [
      '/ssh_credentials',
      'ssh_credentials',
      { public_key: sshEd25519, acl: ['bind:*.example.com'] },
      { acl: ['*'] },
    ],
    ['/credentials', 'credentials', { acl: ['bind:x=y'] }, { description: 'c' }],
    ['/reserved_domains', 'reserved_domains', { domain: 'crud.example.com' }, { description: 'd' }],
    ['/agent_ingresses', 'ingresses', { domain: 'ingress.example.com' }, { description: 'i' }],
    ['/certificate_authorities', 'certificate_authorities', { ca_pem: caPem }, { description: 'ca' }],
    [
      '/tls_certificates',
      'tls_certificates',
      { certificate_pem: leafRsaPem, private_key_pem: leafRsaKey },
      { metadata: 'm' },
    ],
    ['/edges/tls', 'tls_edges', { hostports: ['crud.example.com:443'] }, { description: 'e' }],
    ['/edges/https', 'https_edges', { hostports: ['crud.example.com:8443'] }, { description: 'e' }],
    ['/event_destinations', 'event_destinations', { target: monitoringTarget }, { description: 'ed' }],
    [
      '/event_subscriptions',
      'event_subscriptions',
      { sources: [{ type: 'ip_policy_created.v0' }], destination_ids: [destination] },
      { description: 's' },
    ],
    ['/endpoint_configurations', 'endpoint_configurations', { type: 'https' }, { description: 'ec' }],
  ];
}

describe('every collection', () => {
  it('creates, gets, lists, patches and deletes', async () => {
    for (const [path, member, create, patch] of await bodies(h)) {
      const created = await h.call('POST', path, create);
      expect(created.status, `${path} ${JSON.stringify(created.body)}`).toBe(201);
      const id = created.body.id as string;
      expect(created.body.uri).toBe(
        `${h.emulator.url}${path}/${id}`.replace(`${h.emulator.url}/agent_ingresses`, '/agent_ingresses'),
      );
      expect(created.body.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const got = await h.call('GET', `${path}/${id}`);
      expect(got.status).toBe(200);
      const list = await h.call('GET', path);
      expect(list.status).toBe(200);
      expect(
        list.body[member].some((o: { id: string }) => o.id === id),
        path,
      ).toBe(true);
      expect(list.body.next_page_uri).toBeNull();
      const patched = await h.call('PATCH', `${path}/${id}`, { ...patch, id });
      expect(patched.status, `${path} ${JSON.stringify(patched.body)}`).toBe(200);
      for (const [k, v] of Object.entries(patch)) if (!k.endsWith('_ids')) expect(patched.body[k]).toEqual(v);
      expect((await h.call('DELETE', `${path}/${id}`)).status).toBe(204);
      expect((await h.call('GET', `${path}/${id}`)).status).toBe(404);
    }
  });

  it('returns tokens once and stores them as hashes', async () => {
    for (const path of ['/api_keys', '/credentials']) {
      const created = await h.call('POST', path, {});
      expect(typeof created.body.token).toBe('string');
      expect((await h.call('GET', `${path}/${created.body.id}`)).body.token).toBeNull();
    }
    const key = await h.call('POST', '/api_keys', {});
    expect((await h.call('GET', '/api_keys', undefined, { token: key.body.token })).status).toBe(200);
    await h.call('DELETE', `/api_keys/${key.body.id}`);
    expect((await h.call('GET', '/api_keys', undefined, { token: key.body.token })).status).toBe(401);
  });

  it('derives service members', async () => {
    const addr = await h.call('POST', '/reserved_addrs', { region: 'jp' });
    expect(addr.body.addr).toMatch(/^\d\.tcp\.jp\.[a-z.-]+:\d+$/);
    expect(addr.body.endpoint_configuration).toBeNull();
    const custom = await h.call('POST', '/reserved_domains', {
      domain: 'app.example.org',
      certificate_management_policy: {},
    });
    expect(custom.body.cname_target).toMatch(/cname/);
    expect(custom.body.certificate_management_policy).toEqual({
      authority: 'public_acme_ca',
      private_key_type: 'rsa',
    });
    expect(custom.body.certificate_management_status.provisioning_job.started_at).toBeTypeOf('string');
    const own = await h.call('POST', '/reserved_domains', { domain: 'mine.svc-emulator.app' });
    expect(own.body.cname_target).toBeNull();
    expect(own.body.certificate_management_status).toBeNull();
    const wildcard = await h.call('POST', '/reserved_domains', {
      domain: '*.wild.example.org',
      certificate_management_policy: { private_key_type: 'ecdsa' },
    });
    expect(wildcard.body.acme_challenge_cname_target).toMatch(/acme/);
    const ingress = await h.call('POST', '/agent_ingresses', { domain: 'agents.example.org' });
    expect(ingress.body.uri).toBe(`/agent_ingresses/${ingress.body.id}`);
    expect(ingress.body.ns_targets.length).toBeGreaterThan(0);
    expect(ingress.body.region_domains.every((d: string) => d.endsWith('.agents.example.org'))).toBe(true);
    const backend = await h.call('POST', '/backends/http_response', {
      status_code: 200,
      headers: { 'X-Thing': 'a' },
    });
    expect(backend.body.headers).toEqual({ 'x-thing': 'a' });
  });

  it('parses certificates for real', async () => {
    const ca = await h.call('POST', '/certificate_authorities', { ca_pem: caPem });
    expect(ca.body).toMatchObject({
      subject_common_name: 'Acme Test Root CA',
      not_before: '2025-01-01T00:00:00Z',
      not_after: '2035-01-01T00:00:00Z',
    });
    const cert = await h.call('POST', '/tls_certificates', {
      certificate_pem: leafRsaPem,
      private_key_pem: leafRsaKey,
    });
    expect(cert.body).toMatchObject({
      subject_common_name: 'api.example.com',
      subject_alternative_names: { dns_names: ['api.example.com', '*.api.example.com'], ips: ['192.0.2.10'] },
      issuer_common_name: 'Acme Test Root CA',
      serial_number: 'abcdef01',
      subject_organization: 'Acme Test',
      subject_country: 'US',
      private_key_type: 'rsa',
      issued_at: null,
      extended_key_usages: ['server_auth'],
    });
    expect(cert.body).not.toHaveProperty('private_key_pem');
  });
});

describe('protocol', () => {
  it('answers errors with the gaps.md body', async () => {
    const res = await h.call('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error_code: 'ERR_SVC_100',
      status_code: 404,
      msg: 'Resource not found',
      details: { operation_id: res.headers.get('svc-operation-id') },
    });
    expect(res.body.details.operation_id).toMatch(/^op_/);
  });

  it.each([
    ['no token', 'GET', '/api_keys', undefined, { token: null }, 401, 101],
    ['bad token', 'GET', '/_emulator/agents', undefined, { token: 'x' }, 401, 101],
    ['405', 'PUT', '/ip_policies', {}, {}, 405, 103],
    ['version', 'GET', '/ip_policies', undefined, { headers: { 'Svc-Version': '3' } }, 400, 217],
    ['unknown field', 'POST', '/ip_policies', { nope: 1 }, {}, 400, 214],
    ['read-only field', 'POST', '/ip_policies', { id: 'ipp_x' }, {}, 400, 214],
    ['malformed JSON', 'POST', '/ip_policies', undefined, { raw: '{"a":' }, 400, 213],
    [
      'wrong content type',
      'POST',
      '/ip_policies',
      undefined,
      { raw: '{}', headers: { 'Content-Type': 'text/plain' } },
      400,
      210,
    ],
    ['unknown query', 'GET', '/ip_policies?x=1', undefined, {}, 400, 231],
    ['limit 0', 'GET', '/ip_policies?limit=0', undefined, {}, 400, 233],
    ['limit 101', 'GET', '/ip_policies?limit=101', undefined, {}, 400, 233],
    ['proto key', 'POST', '/ip_policies', undefined, { raw: '{"__proto__":{"admin":true}}' }, 400, 214],
    ['not an object', 'POST', '/ip_policies', [], {}, 400, 215],
  ])('%s', async (_name, method, path, body, options, status, code) => {
    const res = await h.call(method, path, body, options);
    expect(res.status).toBe(status);
    expect(res.body.error_code).toBe(`ERR_SVC_${code}`);
    expect(res.headers.get('svc-operation-id')).toBe(res.body.details.operation_id);
  });

  it('accepts Content-Type on GET and DELETE, and a missing version header', async () => {
    const res = await h.call('GET', '/ip_policies', undefined, {
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const bare = await fetch(`${h.emulator.url}/ip_policies`, {
      headers: { Authorization: `Bearer ${h.emulator.token}` },
    });
    expect(bare.status).toBe(200);
  });

  it('refuses bodies over 1 MiB without a 500', async () => {
    const res = await h.call('POST', '/ip_policies', { description: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body.error_code).toBe('ERR_SVC_104');
  });

  it('keeps __proto__ inside maps harmless', async () => {
    const res = await h.call('POST', '/backends/tunnel_group', undefined, {
      raw: '{"labels":{"__proto__":"x","constructor":"y"}}',
    });
    expect(res.status).toBe(201);
    expect(res.body.labels).toEqual(JSON.parse('{"__proto__":"x","constructor":"y"}'));
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});
