/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- responses are arbitrary JSON read member by member */
import { describe, expect, it } from 'vitest';
import { caPem } from './fixtures.js';
import { useEmulator } from './harness.js';

const h = useEmulator();

describe('TLS edge modules', () => {
  it('defaults enabled to true and keeps, replaces, never removes modules on PATCH', async () => {
    const backend = (await h.call('POST', '/backends/http_response', { status_code: 200 })).body.id;
    const ca = (await h.call('POST', '/certificate_authorities', { ca_pem: caPem })).body.id;
    const edge = await h.call('POST', '/edges/tls', {
      hostports: ['m.example.com:443'],
      backend: { backend_id: backend },
      mutual_tls: { enabled: false, certificate_authority_ids: [ca] },
    });
    expect(edge.body.backend).toEqual({
      enabled: true,
      backend: { id: backend, uri: `${h.emulator.url}/backends/http_response/${backend}` },
    });
    const id = edge.body.id;
    const patched = await h.call('PATCH', `/edges/tls/${id}`, {
      mutual_tls: { certificate_authority_ids: [] },
      backend: null,
    });
    expect(patched.body.backend.backend.id).toBe(backend);
    expect(patched.body.mutual_tls).toEqual({ enabled: true, certificate_authorities: [] });
    for (const module of ['backend', 'ip_restriction', 'mutual_tls', 'tls_termination', 'policy']) {
      const body =
        module === 'backend'
          ? { backend_id: backend }
          : module === 'policy'
            ? {
                inbound: [
                  { name: 'r', expressions: ['true'], actions: [{ type: 'log', config: { metadata: {} } }] },
                ],
              }
            : {};
      const put = await h.call('PUT', `/edges/tls/${id}/${module}`, body);
      expect(put.status, module).toBe(200);
      expect(put.body.enabled).toBe(true);
      expect((await h.call('GET', `/edges/tls/${id}/${module}`)).body).toEqual(put.body);
      expect((await h.call('DELETE', `/edges/tls/${id}/${module}`)).status).toBe(204);
      expect((await h.call('GET', `/edges/tls/${id}`)).body[module]).toBeNull();
      expect((await h.call('GET', `/edges/tls/${id}/${module}`)).status).toBe(404);
    }
  });

  it('checks the whole edge after a module PUT (upstream refuses policy)', async () => {
    const id = (await h.call('POST', '/edges/tls', { tls_termination: { terminate_at: 'upstream' } })).body
      .id;
    const res = await h.call('PUT', `/edges/tls/${id}/policy`, { inbound: [] });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('ERR_SVC_218');
  });
});

describe('HTTPS edges and route modules', () => {
  it('serves edge modules, routes and every route module, secrets not echoed', async () => {
    const edge = (
      await h.call('POST', '/edges/https', {
        hostports: ['r.example.com:443'],
        tls_termination: { min_version: '1.2' },
      })
    ).body.id;
    for (const module of ['mutual_tls', 'tls_termination']) {
      expect((await h.call('PUT', `/edges/https/${edge}/${module}`, {})).status).toBe(200);
      expect((await h.call('GET', `/edges/https/${edge}/${module}`)).status).toBe(200);
      expect((await h.call('DELETE', `/edges/https/${edge}/${module}`)).status).toBe(204);
    }
    const route = await h.call('POST', `/edges/https/${edge}/routes`, {
      match_type: 'path_prefix',
      match: '/api',
      oidc: { issuer: 'https://idp.example.com', client_id: 'c', client_secret: 'very-secret' },
    });
    expect(route.status).toBe(201);
    expect(route.body.edge_id).toBe(edge);
    expect(route.body.oidc.client_secret).toBe('');
    const base = `/edges/https/${edge}/routes/${route.body.id}`;
    const policy = (await h.call('POST', '/ip_policies', {})).body.id;
    const modules: Record<string, unknown> = {
      oidc: { issuer: 'https://idp.example.com', client_id: 'c', client_secret: 's', scopes: ['openid'] },
      saml: { idp_metadata: '<EntityDescriptor/>' },
      oauth: { provider: { provider_a: { client_id: 'i', client_secret: 's', teams: ['org/t'] } } },
      ip_restriction: { ip_policy_ids: [policy] },
      circuit_breaker: { error_threshold_percentage: 0.5, num_buckets: 10 },
      backend: { backend_id: (await h.call('POST', '/backends/failover', {})).body.id },
    };
    for (const [module, body] of Object.entries(modules)) {
      const put = await h.call('PUT', `${base}/${module}`, body);
      expect(put.status, `${module} ${JSON.stringify(put.body)}`).toBe(200);
      expect(JSON.stringify(put.body)).not.toContain('"s"');
      expect((await h.call('GET', `${base}/${module}`)).body).toEqual(put.body);
    }
    const saml = (await h.call('GET', `${base}/saml`)).body;
    expect(saml.entity_id).toMatch(/^http/);
    expect(saml.request_signing_certificate_pem).toContain('BEGIN CERTIFICATE');
    expect(saml.idp_metadata_url).toBe('');
    expect((await h.call('GET', `${base}/ip_restriction`)).body.ip_policies[0].id).toBe(policy);
    for (const module of Object.keys(modules))
      expect((await h.call('DELETE', `${base}/${module}`)).status).toBe(204);
    const patched = await h.call('PATCH', base, { id: route.body.id, edge_id: edge, match: '/v2' });
    expect(patched.status).toBe(200);
    expect(patched.body.match).toBe('/v2');
    expect((await h.call('PATCH', base, { edge_id: 'edghts_other' })).body.error_code).toBe('ERR_SVC_214');
    expect((await h.call('GET', `/edges/https/edghts_00000000000/routes/${route.body.id}`)).status).toBe(404);
  });

  it('returns event destination secrets as ""', async () => {
    const res = await h.call('POST', '/event_destinations', {
      target: {
        object_store: {
          auth: { creds: { cloud_access_key_id: 'a', cloud_secret_access_key: 'b' } },
          bucket_arn: 'arn:b',
        },
      },
    });
    expect(res.body.target.object_store.auth.creds.cloud_secret_access_key).toBe('');
    expect(res.body.target.monitoring).toBeNull();
  });
});
