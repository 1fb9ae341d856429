/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- responses are arbitrary JSON read member by member */
/**
 * The emulator refuses what the service refuses: a TLS edge policy whose expression does not
 * compile is answered with 400, a code and a message naming the rule and the expression, and
 * nothing is stored, on create, on PATCH and on the policy module's PUT.
 */
import { describe, expect, it } from 'vitest';
import { useEmulator } from './harness.js';

const h = useEmulator();

const rule = (expression: string) => ({
  inbound: [{ name: 'block-office', expressions: [expression], actions: [{ type: 'deny' }] }],
});

describe('TLS edge policy expressions', () => {
  it('refuses an edge whose policy expression does not compile, storing nothing', async () => {
    const res = await h.call('POST', '/edges/tls', {
      hostports: ['p.example.com:443'],
      policy: rule("conn.clent_ip == '198.51.100.7'"),
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('ERR_SVC_218');
    expect(res.body.msg).toContain('rule "block-office"');
    expect(res.body.msg).toContain(`expression "conn.clent_ip == '198.51.100.7'" does not compile`);
    expect(res.body.msg).toContain('unknown variable conn.clent_ip');
    expect((await h.call('GET', '/edges/tls')).body.tls_edges).toEqual([]);
  });

  it('refuses a policy PUT or an edge PATCH with a broken expression and keeps the stored policy', async () => {
    const good = rule("conn.client_ip == '198.51.100.7'");
    const created = await h.call('POST', '/edges/tls', { hostports: ['q.example.com:443'], policy: good });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const before = (await h.call('GET', `/edges/tls/${id}/policy`)).body;

    const put = await h.call('PUT', `/edges/tls/${id}/policy`, rule('conn.client_ip == 5'));
    expect(put.status).toBe(400);
    expect(put.body.error_code).toBe('ERR_SVC_218');
    expect(put.body.msg).toContain('rule "block-office": expression "conn.client_ip == 5" does not compile');

    const patch = await h.call('PATCH', `/edges/tls/${id}`, { policy: rule('size(conn.client_ip, 2) > 0') });
    expect(patch.status).toBe(400);
    expect(patch.body.msg).toContain("no matching overload for 'size(string, int)'");

    expect((await h.call('GET', `/edges/tls/${id}/policy`)).body).toEqual(before);
  });
});
