/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
/**
 * The platform's JavaScript API client, replayed: every service of it the emulator serves, with
 * the requests it sends (test/fixtures/js-api-client.ts), pointed at the emulator with only the
 * base URL and the version header changed. Each answer is what the spec says and what the client
 * reads (the list member, `next_page_uri` to page on).
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  crudServices,
  eventSourceShapes,
  moduleServices,
  routeShapes,
  tunnelSessionShapes,
  type ModuleService,
  type Prerequisites,
} from '../fixtures/js-api-client.js';
import { caPem, leafRsaKey, leafRsaPem } from './fixtures.js';
import { callEmulator, useEmulator, type Answer } from './harness.js';

const h = useEmulator();

/** A request with the client's headers; `body` is the JSON text it serializes. */
function client(method: string, path: string, body?: string): Promise<Answer> {
  return callEmulator(h.emulator, method, path, undefined, {
    headers: {
      'User-Agent': `ngrok-api-typescript/0.17.0/${process.version}`,
      'Content-Type': 'application/json',
    },
    ...(body === undefined ? {} : { raw: body }),
  });
}

async function created(path: string, body: Record<string, unknown>): Promise<any> {
  const res = await client('POST', path, JSON.stringify(body));
  expect(res.status, `POST ${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

/** The client's list(): `limit`, then `beforeId` of the last item while `next_page_uri` is set. */
async function listAll(path: string, member: string, limit: string): Promise<any[]> {
  const items: any[] = [];
  let query = `limit=${limit}`;
  for (;;) {
    const page = await client('GET', `${path}?${query}`);
    expect(page.status, `GET ${path}?${query}`).toBe(200);
    expect(page.body.uri).toBe(`${h.emulator.url}${path}`);
    const got: any[] = page.body[member];
    items.push(...got);
    if (!page.body.next_page_uri) return items;
    query = `beforeId=${encodeURIComponent(got.at(-1).id)}&limit=${limit}`;
  }
}

/** The sent value as the response shows it: objects may carry more (a ref's `uri`). */
function expectShown(shown: unknown, sent: unknown): void {
  if (typeof sent === 'object' && sent !== null) expect(shown).toMatchObject(sent);
  else expect(shown).toEqual(sent);
}

/** A new `ssh-ed25519` public key in the authorized_keys form. */
function sshPublicKey(): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const field = (b: Buffer): Buffer => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')}`;
}

let p: Prerequisites;
let counter = 0;

beforeAll(async () => {
  const base = { caPem, certificatePem: leafRsaPem, privateKeyPem: leafRsaKey, sshPublicKey };
  p = {
    ...base,
    policy: (await created('/ip_policies', {})).id,
    backend: (await created('/backends/http_response', { body: 'ok', headers: {}, status_code: 200 })).id,
    ca: (await created('/certificate_authorities', { ca_pem: caPem })).id,
    destination: (
      await created('/event_destinations', {
        format: 'json',
        target: { monitoring: { api_key: 'k', tags: '', service: 's', site: 'x' } },
      })
    ).id,
  };
});

describe('the JS client replayed against the emulator', () => {
  it.each(crudServices.map((s) => [s.service, s] as const))(
    '%s: create, get, list, update, delete',
    async (_, s) => {
      const bodies = [0, 1, 2].map(() => s.create(p, ++counter));
      const objects = [];
      for (const body of bodies) objects.push(await created(s.path, body));
      const [first] = objects;
      // Agent ingresses return their address as a path (account-api.md), the others as a URL.
      expect([`${h.emulator.url}${s.path}/${first.id}`, `${s.path}/${first.id}`]).toContain(first.uri);
      const got = await client('GET', `${s.path}/${first.id}`);
      expect(got.status).toBe(200);
      expect(got.body.id).toBe(first.id);
      if (s.listMember !== undefined) {
        const listed = (await listAll(s.path, s.listMember, '2')).map((o) => o.id);
        for (const o of objects) expect(listed).toContain(o.id);
      }
      const change = s.update(p);
      const updated = await client(
        'PATCH',
        `${s.path}/${first.id}`,
        JSON.stringify({ id: first.id, ...change }),
      );
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expectShown(updated.body[s.changed], change[s.changed]);
      expect(updated.body.description).toBe(change.description);
      for (const o of objects) expect((await client('DELETE', `${s.path}/${o.id}`)).status).toBe(204);
      expect((await client('GET', `${s.path}/${first.id}`)).status).toBe(404);
    },
  );

  it('edges.edgesHttpsRoutes: create, get, update, delete with the edge id in the body', async () => {
    const edge = (await created('/edges/https', { hostports: [`routes${++counter}.example.com:443`] })).id;
    const routes = `/edges/https/${edge}/routes`;
    const route = await created(routes, routeShapes.create(edge, p));
    expect(route.edge_id).toBe(edge);
    expect((await client('GET', `${routes}/${route.id}`)).body.match).toBe('/api');
    const updated = await client(
      'PATCH',
      `${routes}/${route.id}`,
      JSON.stringify(routeShapes.update(edge, route.id)),
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.match).toBe('/v2');
    expect((await client('DELETE', `${routes}/${route.id}`)).status).toBe(204);
    expect((await client('GET', `${routes}/${route.id}`)).status).toBe(404);
  });

  async function ownerPath(owner: ModuleService['owner']): Promise<string> {
    const hostport = `modules${++counter}.example.com:443`;
    if (owner === 'tls_edge')
      return `/edges/tls/${(await created('/edges/tls', { hostports: [hostport] })).id}`;
    const edge = (await created('/edges/https', { hostports: [hostport] })).id;
    if (owner === 'https_edge') return `/edges/https/${edge}`;
    const route = await created(`/edges/https/${edge}/routes`, {
      edge_id: edge,
      match_type: 'exact_path',
      match: '/m',
    });
    return `/edges/https/${edge}/routes/${route.id}`;
  }

  it.each(moduleServices.map((m) => [m.service, m] as const))('%s: replace, get, delete', async (_, m) => {
    const path = `${await ownerPath(m.owner)}/${m.segment}`;
    const put = await client('PUT', path, JSON.stringify(m.body(p)));
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.enabled).toBe(true);
    expect((await client('GET', path)).body).toEqual(put.body);
    expect((await client('DELETE', path)).status).toBe(204);
    expect((await client('GET', path)).status).toBe(404);
  });

  it('eventSources: create, list, get, update, delete with the subscription id and type in the body', async () => {
    const subscription = (
      await created('/event_subscriptions', { sources: [], destination_ids: [p.destination] })
    ).id;
    const sources = `/event_subscriptions/${subscription}/sources`;
    const type = 'ip_policy_updated.v0';
    const source = await created(sources, eventSourceShapes.create(subscription, type));
    expect(source.type).toBe(type);
    const listed = await client('GET', sources);
    expect(listed.body.sources.map((s: { type: string }) => s.type)).toEqual([type]);
    expect((await client('GET', `${sources}/${type}`)).body.type).toBe(type);
    const updated = await client(
      'PATCH',
      `${sources}/${type}`,
      JSON.stringify(eventSourceShapes.update(subscription, type)),
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await client('DELETE', `${sources}/${type}`)).status).toBe(204);
    expect((await client('GET', `${sources}/${type}`)).status).toBe(404);
  });

  it('tunnelSessions: list, get, update, restart, stop', async () => {
    const credential = (await created('/credentials', { acl: [] })).id;
    const agent = await h.call('POST', '/_emulator/agents', {
      credential_id: credential,
      update: 'available',
    });
    expect(agent.status).toBe(201);
    const online = async (): Promise<string> => {
      const sessions = await listAll('/tunnel_sessions', tunnelSessionShapes.listMember, '100');
      const mine = sessions.filter((s) => s.credential.id === credential);
      expect(mine).toHaveLength(1);
      return mine[0].id;
    };
    const session = await online();
    expect((await client('GET', `/tunnel_sessions/${session}`)).body.id).toBe(session);
    const { commands } = tunnelSessionShapes;
    expect(
      (await client('POST', `/tunnel_sessions/${session}/update`, commands.update(session))).status,
    ).toBe(204);
    expect((await client('POST', `/tunnel_sessions/${session}/restart`, commands.restart())).status).toBe(
      204,
    );
    const restarted = await online();
    expect(restarted).not.toBe(session);
    expect((await client('POST', `/tunnel_sessions/${restarted}/stop`, commands.stop())).status).toBe(204);
    const left = await listAll('/tunnel_sessions', tunnelSessionShapes.listMember, '100');
    expect(left.filter((s) => s.credential.id === credential)).toEqual([]);
  });
});

describe('a reserved domain created the way generated clients do', () => {
  it.each([
    ['""', ''],
    ['null', null],
  ])('takes region %s as unset and returns it as ""', async (_, region) => {
    const domain = await created('/reserved_domains', { domain: `region${++counter}.example.com`, region });
    expect(domain.region).toBe('');
    expect((await client('GET', `/reserved_domains/${domain.id}`)).body.region).toBe('');
    // What it returned it takes back: a client echoing the object it read is not refused.
    const again = await client(
      'POST',
      '/reserved_domains',
      JSON.stringify({ domain: `echo${counter}.example.com`, region: domain.region }),
    );
    expect(again.status).toBe(201);
  });

  it('still refuses a region that is not one of the list', async () => {
    const res = await client(
      'POST',
      '/reserved_domains',
      JSON.stringify({ domain: 'mars.example.com', region: 'mars' }),
    );
    expect(res.status).toBe(400);
    expect(res.body.msg).toMatch(/^region: must be one of /);
  });
});
