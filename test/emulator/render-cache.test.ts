/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- responses are arbitrary JSON read member by member */
/**
 * Responses are cached as JSON text: every read after a write must show the write at once, also
 * when the write is to another object the response shows (routes in their edge, sessions in a
 * tunnel group).
 */
import { describe, expect, it } from 'vitest';
import { useEmulator, type Answer } from './harness.js';

const h = useEmulator();

async function get(path: string): Promise<Answer['body']> {
  const res = await h.call('GET', path);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function listed(path: string, member: string, id: string): Promise<Answer['body']> {
  return (await get(`${path}?limit=100`))[member].find((o: { id: string }) => o.id === id);
}

describe('cached responses', () => {
  it('a PATCH shows in the object and its list at once', async () => {
    const id = (await h.call('POST', '/ip_policies', { description: 'before' })).body.id;
    expect((await get(`/ip_policies/${id}`)).description).toBe('before');
    expect((await listed('/ip_policies', 'ip_policies', id)).description).toBe('before');
    expect((await h.call('PATCH', `/ip_policies/${id}`, { description: 'after' })).status).toBe(200);
    expect((await get(`/ip_policies/${id}`)).description).toBe('after');
    expect((await listed('/ip_policies', 'ip_policies', id)).description).toBe('after');
    expect((await h.call('DELETE', `/ip_policies/${id}`)).status).toBe(204);
    expect((await h.call('GET', `/ip_policies/${id}`)).status).toBe(404);
    expect(await listed('/ip_policies', 'ip_policies', id)).toBeUndefined();
  });

  it('a create or a delete shows in every page of a list at once', async () => {
    const page = async (query: string): Promise<{ ids: string[]; next: string | null }> => {
      const body = await get(`/ip_policies?${query}`);
      return { ids: body.ip_policies.map((o: { id: string }) => o.id), next: body.next_page_uri };
    };
    const create = async (): Promise<string> => (await h.call('POST', '/ip_policies', {})).body.id;
    const [a, b, c] = [await create(), await create(), await create()];
    expect(await page('limit=2')).toEqual({
      ids: [c, b],
      next: `${h.emulator.url}/ip_policies?before_id=${b}&limit=2`,
    });
    expect((await page(`limit=2&before_id=${b}`)).ids[0]).toBe(a);
    const d = await create();
    expect(await page('limit=2')).toEqual({
      ids: [d, c],
      next: `${h.emulator.url}/ip_policies?before_id=${c}&limit=2`,
    });
    expect((await page('limit=100')).ids.slice(0, 4)).toEqual([d, c, b, a]);
    expect((await h.call('DELETE', `/ip_policies/${c}`)).status).toBe(204);
    expect((await page('limit=2')).ids).toEqual([d, b]);
    expect((await page(`limit=2&before_id=${d}`)).ids).toEqual([b, a]);
    expect((await page('limit=100')).ids.slice(0, 3)).toEqual([d, b, a]);
  });

  it('a module PUT and DELETE show in the edge at once', async () => {
    const id = (await h.call('POST', '/edges/tls', { hostports: ['cache.example.com:443'] })).body.id;
    expect((await get(`/edges/tls/${id}`)).ip_restriction).toBeNull();
    expect((await listed('/edges/tls', 'tls_edges', id)).ip_restriction).toBeNull();
    const policy = (await h.call('POST', '/ip_policies', {})).body.id;
    const put = await h.call('PUT', `/edges/tls/${id}/ip_restriction`, { ip_policy_ids: [policy] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const expected = [{ id: policy, uri: `${h.emulator.url}/ip_policies/${policy}` }];
    expect((await get(`/edges/tls/${id}`)).ip_restriction.ip_policies).toEqual(expected);
    expect((await listed('/edges/tls', 'tls_edges', id)).ip_restriction.ip_policies).toEqual(expected);
    expect((await h.call('DELETE', `/edges/tls/${id}/ip_restriction`)).status).toBe(204);
    expect((await get(`/edges/tls/${id}`)).ip_restriction).toBeNull();
    expect((await listed('/edges/tls', 'tls_edges', id)).ip_restriction).toBeNull();
  });

  it('a route added, changed or removed shows in its HTTPS edge at once', async () => {
    const edge = (await h.call('POST', '/edges/https', { hostports: ['routes.example.com:443'] })).body.id;
    expect((await get(`/edges/https/${edge}`)).routes).toEqual([]);
    expect((await listed('/edges/https', 'https_edges', edge)).routes).toEqual([]);
    const created = await h.call('POST', `/edges/https/${edge}/routes`, {
      match_type: 'path_prefix',
      match: '/api',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const route = created.body.id;
    const routesOf = async (): Promise<Array<{ id: string; match: string }>> =>
      (await get(`/edges/https/${edge}`)).routes;
    expect((await routesOf()).map((r) => [r.id, r.match])).toEqual([[route, '/api']]);
    expect((await listed('/edges/https', 'https_edges', edge)).routes[0].id).toBe(route);
    expect((await h.call('PATCH', `/edges/https/${edge}/routes/${route}`, { match: '/v2' })).status).toBe(
      200,
    );
    expect((await routesOf()).map((r) => r.match)).toEqual(['/v2']);
    expect((await listed('/edges/https', 'https_edges', edge)).routes[0].match).toBe('/v2');
    expect((await h.call('DELETE', `/edges/https/${edge}/routes/${route}`)).status).toBe(204);
    expect(await routesOf()).toEqual([]);
    expect((await listed('/edges/https', 'https_edges', edge)).routes).toEqual([]);
  });

  it('a session connecting or stopping shows in a tunnel group at once', async () => {
    const group = (await h.call('POST', '/backends/tunnel_group', { labels: { app: 'cached' } })).body.id;
    const tunnels = async (): Promise<unknown[]> => (await get(`/backends/tunnel_group/${group}`)).tunnels;
    const listedTunnels = async (): Promise<unknown[]> =>
      (await listed('/backends/tunnel_group', 'backends', group)).tunnels;
    expect(await tunnels()).toEqual([]);
    expect(await listedTunnels()).toEqual([]);
    const credential = (await h.call('POST', '/credentials', {})).body.id;
    const agent = await h.call('POST', '/_emulator/agents', {
      credential_id: credential,
      labels: { app: 'cached' },
    });
    expect(agent.status, JSON.stringify(agent.body)).toBe(201);
    const session = agent.body.session.id;
    const expected = [{ id: session, uri: `${h.emulator.url}/tunnel_sessions/${session}` }];
    expect(await tunnels()).toEqual(expected);
    expect(await listedTunnels()).toEqual(expected);
    expect((await h.call('POST', `/tunnel_sessions/${session}/stop`, {})).status).toBe(204);
    expect(await tunnels()).toEqual([]);
    expect(await listedTunnels()).toEqual([]);
  });

  it('a deleted API key stops authenticating at once', async () => {
    const key = (await h.call('POST', '/api_keys', {})).body;
    const asKey = { token: key.token as string };
    expect((await h.call('GET', '/ip_policies', undefined, asKey)).status).toBe(200);
    expect((await h.call('DELETE', `/api_keys/${key.id}`)).status).toBe(204);
    expect((await h.call('GET', '/ip_policies', undefined, asKey)).status).toBe(401);
  });
});
