/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument -- responses are arbitrary JSON read member by member */
import { describe, expect, it } from 'vitest';
import { caPem, sshEd25519 } from './fixtures.js';
import { useEmulator } from './harness.js';

const h = useEmulator();

describe('referential integrity', () => {
  it('refuses references to missing ids with 400 (223)', async () => {
    const res = await h.call('POST', '/ip_restrictions', { type: 'api', ip_policy_ids: ['ipp_00000000000'] });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('ERR_SVC_223');
    const weighted = await h.call('POST', '/backends/weighted', { backends: { bkdhr_00000000000: 1 } });
    expect(weighted.body.error_code).toBe('ERR_SVC_223');
  });

  it('refuses deleting an object in use with 409 naming the referrers', async () => {
    const policy = (await h.call('POST', '/ip_policies', {})).body.id;
    const restriction = (await h.call('POST', '/ip_restrictions', { type: 'api', ip_policy_ids: [policy] }))
      .body.id;
    const edge = (await h.call('POST', '/edges/tls', { ip_restriction: { ip_policy_ids: [policy] } })).body
      .id;
    const res = await h.call('DELETE', `/ip_policies/${policy}`);
    expect(res.status).toBe(409);
    expect(res.body.error_code).toBe('ERR_SVC_446');
    expect(res.body.details.referrers).toEqual([restriction, edge].sort());
    expect(res.body.msg).toContain(restriction);
  });

  it('deletes a policy with its rules, and an edge with its routes', async () => {
    const policy = (await h.call('POST', '/ip_policies', {})).body.id;
    const rule = (
      await h.call('POST', '/ip_policy_rules', { cidr: '10.0.0.0/8', ip_policy_id: policy, action: 'allow' })
    ).body.id;
    expect((await h.call('DELETE', `/ip_policies/${policy}`)).status).toBe(204);
    expect((await h.call('GET', `/ip_policy_rules/${rule}`)).status).toBe(404);
    const edge = (await h.call('POST', '/edges/https', { hostports: ['cascade.example.com:443'] })).body.id;
    const route = (
      await h.call('POST', `/edges/https/${edge}/routes`, { match_type: 'path_prefix', match: '/' })
    ).body.id;
    expect(
      (await h.call('GET', `/edges/https/${edge}`)).body.routes.map((r: { id: string }) => r.id),
    ).toEqual([route]);
    expect((await h.call('DELETE', `/edges/https/${edge}`)).status).toBe(204);
    expect((await h.call('GET', `/edges/https/${edge}/routes/${route}`)).status).toBe(404);
  });

  it('answers 409 for duplicates of natural keys', async () => {
    const policy = (await h.call('POST', '/ip_policies', {})).body.id;
    const rule = { cidr: '172.16.0.0/12', ip_policy_id: policy, action: 'allow' };
    expect((await h.call('POST', '/ip_policy_rules', rule)).status).toBe(201);
    const cases: Array<[string, unknown, number]> = [
      ['/ip_policy_rules', rule, 1408],
      ['/reserved_domains', { domain: 'dup.example.com' }, 413],
      [
        '/ssh_credentials',
        { public_key: `${sshEd25519.split(' ').slice(0, 2).join(' ')} other-comment` },
        609,
      ],
      ['/edges/https', { hostports: ['dup.example.com:443'] }, 7132],
    ];
    await h.call('POST', '/reserved_domains', { domain: 'dup.example.com' });
    await h.call('POST', '/ssh_credentials', { public_key: sshEd25519 });
    await h.call('POST', '/edges/tls', { hostports: ['dup.example.com:443'] });
    for (const [path, body, code] of cases) {
      const res = await h.call('POST', path, body);
      expect(res.status, path).toBe(409);
      expect(res.body.error_code).toBe(`ERR_SVC_${code}`);
    }
    expect((await h.call('POST', '/certificate_authorities', { ca_pem: caPem })).status).toBe(201);
  });

  it('answers 409 for a route match already served within the same edge, by POST or PATCH', async () => {
    const edge = (await h.call('POST', '/edges/https', { hostports: ['routes.example.com:443'] })).body.id;
    const other = (await h.call('POST', '/edges/https', { hostports: ['other.example.com:443'] })).body.id;
    const match = { match_type: 'path_prefix', match: '/api' };
    expect((await h.call('POST', `/edges/https/${edge}/routes`, match)).status).toBe(201);
    const dup = await h.call('POST', `/edges/https/${edge}/routes`, match);
    expect(dup.status).toBe(409);
    expect(dup.body.error_code).toBe('ERR_SVC_107');
    expect((await h.call('POST', `/edges/https/${other}/routes`, match)).status).toBe(201);
    const second = (await h.call('POST', `/edges/https/${edge}/routes`, { ...match, match: '/web' })).body.id;
    const moved = await h.call('PATCH', `/edges/https/${edge}/routes/${second}`, { match: '/api' });
    expect(moved.status).toBe(409);
    expect(moved.body.error_code).toBe('ERR_SVC_107');
  });
});

describe('paging', () => {
  it('walks 250 objects newest first, each exactly once', async () => {
    const created: string[] = [];
    for (let i = 0; i < 250; i++)
      created.push((await h.call('POST', '/endpoint_configurations', { type: 'tcp' })).body.id);
    const seen: string[] = [];
    let next: string | null = '/endpoint_configurations?limit=40';
    let pages = 0;
    while (next !== null) {
      const page = await h.call('GET', next);
      expect(page.status).toBe(200);
      seen.push(...page.body.endpoint_configurations.map((o: { id: string }) => o.id));
      next = page.body.next_page_uri;
      if (next !== null) expect(next.startsWith(h.emulator.url)).toBe(true);
      pages++;
    }
    expect(pages).toBe(7);
    expect(seen).toEqual([...created].reverse());
    const alias = await h.call('GET', `/endpoint_configurations?limit=1&beforeId=${created[1]}`);
    expect(alias.body.endpoint_configurations[0].id).toBe(created[0]);
  });
});
