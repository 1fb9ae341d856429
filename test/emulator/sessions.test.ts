/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
import { describe, expect, it } from 'vitest';
import { useEmulator, type Harness } from './harness.js';

const h = useEmulator();

async function connect(h: Harness, extra: Record<string, unknown> = {}) {
  const credential = (await h.call('POST', '/credentials', {})).body.id;
  const res = await h.call('POST', '/_emulator/agents', { credential_id: credential, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { agent: res.body.agent.id as string, session: res.body.session.id as string, credential };
}

describe('tunnel sessions', () => {
  it('lists online sessions and records the credential', async () => {
    const { session, credential } = await connect(h, { os: 'darwin', region: 'eu', agent_version: '3.2.0' });
    const got = await h.call('GET', `/tunnel_sessions/${session}`);
    expect(got.body).toMatchObject({
      os: 'darwin',
      region: 'eu',
      agent_version: '3.2.0',
      transport: 'svc/v2',
      credential: { id: credential },
    });
    expect(
      (await h.call('GET', '/tunnel_sessions')).body.tunnel_sessions.some(
        (s: { id: string }) => s.id === session,
      ),
    ).toBe(true);
  });

  it('restart gives a new session id, refused on Windows; stop ends the session', async () => {
    const { agent, session } = await connect(h);
    expect((await h.call('POST', `/tunnel_sessions/${session}/restart`, {})).status).toBe(204);
    expect((await h.call('GET', `/tunnel_sessions/${session}`)).status).toBe(404);
    const state = (await h.call('GET', `/_emulator/agents/${agent}`)).body;
    expect(state.sessions).toHaveLength(2);
    expect((await h.call('POST', `/tunnel_sessions/${state.session_id}/stop`, {})).status).toBe(204);
    expect((await h.call('GET', `/tunnel_sessions/${state.session_id}`)).status).toBe(404);
    const windows = await connect(h, { os: 'windows' });
    const refused = await h.call('POST', `/tunnel_sessions/${windows.session}/restart`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe('ERR_SVC_106');
    expect((await h.call('GET', `/_emulator/agents/${windows.agent}`)).body.commands[0]).toMatchObject({
      command: 'restart',
      outcome: 'refused',
    });
  });

  it.each([
    ['available', 204, 'updating'],
    ['none', 400, 'none'],
    ['disabled', 400, 'disabled'],
    ['updating', 400, 'updating'],
    ['updated', 400, 'updated'],
  ])('update with update state %s', async (update, status, after) => {
    const { agent, session } = await connect(h, { update });
    const res = await h.call('POST', `/tunnel_sessions/${session}/update`, {});
    expect(res.status).toBe(status);
    if (status !== 204) expect(res.body.error_code).toBe('ERR_SVC_106');
    expect((await h.call('GET', `/_emulator/agents/${agent}`)).body.update).toBe(after);
  });

  it('never updates to a new major version; restart after an update installs it', async () => {
    const major = await connect(h, { update: 'available', agent_version: '3.1.0', update_version: '4.0.0' });
    expect((await h.call('POST', `/tunnel_sessions/${major.session}/update`, {})).status).toBe(400);
    const { agent, session } = await connect(h, { update: 'available', agent_version: '3.1.0' });
    expect((await h.call('POST', `/tunnel_sessions/${session}/update`, {})).status).toBe(204);
    await h.call('PATCH', `/_emulator/agents/${agent}`, { update: 'updated' });
    await h.call('POST', `/tunnel_sessions/${session}/restart`, {});
    const state = (await h.call('GET', `/_emulator/agents/${agent}`)).body;
    expect(state.agent_version).toBe('3.2.0');
    expect((await h.call('GET', `/tunnel_sessions/${state.session_id}`)).body.agent_version).toBe('3.2.0');
  });

  it('tunnel group backends list the online sessions whose labels match', async () => {
    const group = (await h.call('POST', '/backends/tunnel_group', { labels: { app: 'web' } })).body.id;
    const { session } = await connect(h, { labels: { app: 'web', env: 'prod' } });
    await connect(h, { labels: { app: 'api' } });
    expect(
      (await h.call('GET', `/backends/tunnel_group/${group}`)).body.tunnels.map((t: { id: string }) => t.id),
    ).toEqual([session]);
    await h.call('POST', `/tunnel_sessions/${session}/stop`, {});
    expect((await h.call('GET', `/backends/tunnel_group/${group}`)).body.tunnels).toEqual([]);
  });
});

describe('events', () => {
  it('delivers one event per subscription listing the type, per destination', async () => {
    const target = { monitoring: { api_key: 'k' } };
    const d1 = (await h.call('POST', '/event_destinations', { target })).body.id;
    const d2 = (await h.call('POST', '/event_destinations', { target })).body.id;
    const sub = (
      await h.call('POST', '/event_subscriptions', {
        sources: [{ type: 'ip_policy_created.v0' }],
        destination_ids: [d1, d2],
      })
    ).body.id;
    await h.call('POST', `/event_subscriptions/${sub}/sources`, { type: 'agent_session_start.v0' });
    await h.call('DELETE', '/_emulator/deliveries');
    const policy = (await h.call('POST', '/ip_policies', { description: 'evt' })).body;
    await h.call('PATCH', `/ip_policies/${policy.id}`, { description: 'not subscribed' });
    await connect(h);
    const deliveries = (await h.call('GET', '/_emulator/deliveries')).body.deliveries;
    expect(
      deliveries.map((d: { destination_id: string; event: { event_type: string } }) => [
        d.event.event_type,
        d.destination_id,
      ]),
    ).toEqual([
      ['ip_policy_created.v0', d1],
      ['ip_policy_created.v0', d2],
      ['agent_session_start.v0', d1],
      ['agent_session_start.v0', d2],
    ]);
    expect(deliveries[0].event).toMatchObject({
      event_id: expect.stringMatching(/^ev_/),
      event_timestamp: expect.any(String),
      object: policy,
    });
  });

  it('manages sources one by one', async () => {
    const sub = (await h.call('POST', '/event_subscriptions', {})).body.id;
    const base = `/event_subscriptions/${sub}/sources`;
    const created = await h.call('POST', base, { type: 'domain_created.v0' });
    expect(created.body).toEqual({
      type: 'domain_created.v0',
      uri: `${h.emulator.url}${base}/domain_created.v0`,
    });
    expect((await h.call('POST', base, { type: 'bogus.v0' })).body.error_code).toBe('ERR_SVC_238');
    expect((await h.call('GET', base)).body.sources).toEqual([created.body]);
    expect((await h.call('GET', `${base}/domain_created.v0`)).body).toEqual(created.body);
    expect((await h.call('PATCH', `${base}/domain_created.v0`, {})).status).toBe(200);
    expect((await h.call('DELETE', `${base}/domain_created.v0`)).status).toBe(204);
    expect((await h.call('GET', `${base}/domain_created.v0`)).status).toBe(404);
  });
});
