/**
 * Taking over a hand-made account as a user does it, through the CLI: export, validate, sync
 * --adopt. The account holds what makes natural keys useless: objects with no description, several
 * with the same description, references to those, unicode descriptions and metadata of every shape.
 * The takeover must adopt every object and create none, and further export/adopt cycles change nothing.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceOwned, managedDescriptors } from '../../src/resources/index.js';
import { useAccount } from '../support/use-account.js';
import { populate, secretsEnv } from './account.js';
import { runCliAgainst } from '../support/cli.js';

const account = useAccount({}, 'file');
let dir: string;

type Created = { id: string } & Record<string, unknown>;

/** What defeats pairing by description: none, the same one twice, references to such objects. */
async function populateLookalikes(): Promise<void> {
  const post = async (path: string, body: unknown): Promise<Created> =>
    (await account.client.post<Created>(path, body)).body;
  await post('/api_keys', {});
  await post('/api_keys', {});
  await post('/api_keys', { description: 'CI deploy key', metadata: '["a", "b"]' });
  await post('/api_keys', { description: 'Büro Köln', metadata: 'Grüße aus Köln ✓' });
  await post('/api_keys', { description: '東京オフィス', metadata: 'null' });
  await post('/credentials', { metadata: '' });
  await post('/credentials', { description: 'Büro Köln', metadata: '{"acctsync":"not a marker"}' });
  await post('/reserved_addrs', { region: 'eu' });
  await post('/reserved_addrs', { region: 'eu' });
  await post('/reserved_addrs', { description: 'SSH bastion', region: 'us' });
  const vpn1 = await post('/ip_policies', { description: 'Office-VPN', metadata: '{"n":1}' });
  const vpn2 = await post('/ip_policies', { description: 'Office-VPN', metadata: '{"n":2}' });
  await post('/ip_policy_rules', { ip_policy_id: vpn1.id, cidr: '10.1.0.0/16', action: 'allow' });
  await post('/ip_policy_rules', { ip_policy_id: vpn2.id, cidr: '10.1.0.0/16', action: 'allow' });
  await post('/ip_policies', {});
  await post('/ip_policies', { description: 'yes', metadata: '{ "spaced": [1, {"deep": null}] }' });
  await post('/ip_policies', { description: 'Büro Köln', metadata: '42' });
  await post('/ip_restrictions', { type: 'api', enforced: false, ip_policy_ids: [vpn2.id] });
  await post('/ip_restrictions', { type: 'api', enforced: false, ip_policy_ids: [vpn2.id] });
  await post('/backends/http_response', { body: 'a', status_code: 200 });
  const second = await post('/backends/http_response', { body: 'a', status_code: 200 });
  await post('/backends/failover', { backends: [second.id] });
  await post('/event_destinations', {
    description: 'Monitoring',
    target: { monitoring: { api_key: 'monitoring-secret', site: 'example.com' } },
  });
}

/**
 * Every id of every top-level and nested collection, by kind, sorted. Certificates the service
 * issues on its own (for a domain with a managed certificate, a few seconds after it is created)
 * are no object of the user's: export and plan leave them out, and so does this count.
 */
async function accountIds(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const d of managedDescriptors()) {
    if (d.listMember === undefined || d.path.includes('{')) continue;
    const items = await account.client.listAll<Created>(d.path, d.listMember);
    out[d.kind] = items
      .filter((i) => !isServiceOwned(d, i))
      .map((i) => i.id)
      .sort();
    for (const child of managedDescriptors()) {
      const embedded = child.parent?.kind === d.kind ? child.parent.embeddedAs : undefined;
      if (embedded === undefined) continue;
      out[child.kind] = items
        .flatMap((i) => (i[embedded] as Created[] | undefined) ?? [])
        .map((c) => c.id)
        .sort();
    }
  }
  return out;
}

async function readDir(path: string): Promise<Record<string, string>> {
  const names = (await readdir(path)).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(async (n): Promise<[string, string]> => [n, await readFile(join(path, n), 'utf8')]),
    ),
  );
}

beforeAll(async () => {
  await populate(account.client);
  await populateLookalikes();
  dir = await mkdtemp(join(tmpdir(), 'acctsync-adoption-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('taking over a hand-made account with look-alike objects', () => {
  it('adopts every object and creates none; re-exports and further cycles change nothing', async () => {
    const env = {
      ...secretsEnv(),
      ACCTSYNC_EVENT_DESTINATIONS_MONITORING_2_TARGET_MONITORING_API_KEY: 'monitoring-secret',
    };
    const ids = await accountIds();
    const out = join(dir, 'config');

    expect((await runCliAgainst(['export', '--out', out], account)).code).toBe(0);
    const validated = await runCliAgainst(['validate', out], account, { env });
    expect(validated.code, validated.stderr).toBe(0);

    const dry = await runCliAgainst(['sync', out, '--adopt', '--dry-run', '--output', 'json'], account, {
      env,
    });
    expect(dry.code, dry.stderr).toBe(0);
    const plan = JSON.parse(dry.stdout) as { operations: Array<{ action: string; key: string }> };
    expect(plan.operations.filter((op) => op.action !== 'adopt')).toEqual([]);
    // Every object but the other scope's policy and the one this scope already manages.
    expect(plan.operations).toHaveLength(Object.values(ids).flat().length - 2);

    const first = await readDir(out);
    // Names and text a YAML 1.1 tool reads the same way: two `Office-VPN` policies keep their name.
    expect(first['ip_policies.yaml']).toMatch(
      /^# yaml-language-server: \$schema=\S+schemas\/acctsync.schema.json\n/,
    );
    expect(first['ip_policies.yaml']).toContain('description: "yes"');
    expect(first['ip_policies.yaml']).toMatch(/\n {2}office-vpn:\n[^]*\n {2}office-vpn-2:\n/);
    for (let cycle = 1; cycle <= 3; cycle++) {
      const synced = await runCliAgainst(['sync', out, '--adopt'], account, { env });
      expect(synced.code, `cycle ${cycle}: ${synced.stderr}`).toBe(0);
      expect(await accountIds(), `cycle ${cycle}`).toEqual(ids);
      const next = await runCliAgainst(['plan', out, '--detailed-exitcode'], account, { env });
      expect(next.code, `cycle ${cycle}: ${next.stdout}${next.stderr}`).toBe(0);
      expect((await runCliAgainst(['export', '--out', out], account)).code).toBe(0);
      expect(await readDir(out), `cycle ${cycle}`).toEqual(first);
    }
  }, 300_000);

  it('keeps every other placeholder name when a route is deleted by hand and the account re-exported', async () => {
    const variables = async (): Promise<string[]> => {
      const exported = await runCliAgainst(['export', '--kind', 'https_edges'], account);
      expect(exported.code, exported.stderr).toBe(0);
      return [...new Set(exported.stdout.match(/ACCTSYNC_HTTPS_EDGES_\w+/g) ?? [])].sort();
    };
    const before = await variables();
    const edges = await account.client.listAll<Created>('/edges/https', 'https_edges');
    const routes = edges.flatMap((e) => ((e.routes as Created[] | undefined) ?? []).map((r) => ({ e, r })));
    const root = routes.find(({ r }) => r.match === '/');
    expect(root).toBeDefined();
    await account.client.delete(`/edges/https/${root?.e.id ?? ''}/routes/${root?.r.id ?? ''}`);
    const after = await variables();
    expect(after).toEqual(before.filter((v) => !v.includes('_ROUTES_PATH_PREFIX_')));
    expect(after).toContain(
      'ACCTSYNC_HTTPS_EDGES_WEB_ROUTES_EXACT_PATH_ADMIN_OAUTH_PROVIDER_PROVIDER_B_CLIENT_SECRET',
    );
  }, 60_000);

  it('warns, naming the object, when its metadata leaves no room for the ownership marker', async () => {
    const long = await account.client.post<Created>('/api_keys', {
      description: 'Long',
      metadata: 'x'.repeat(4090),
    });
    try {
      const exported = await runCliAgainst(
        ['export', '--kind', 'api_keys', '--out', join(dir, 'long')],
        account,
      );
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toMatch(
        new RegExp(
          `warning: api_keys/long \\(${long.body.id}\\): metadata is 4183 bytes with the ownership marker \\(93 of them\\), over the 4096-byte limit: shorten it by 87 before adopting`,
        ),
      );
      expect(exported.stderr.match(/warning:/g)).toHaveLength(1);
    } finally {
      await account.client.delete(`/api_keys/${long.body.id}`);
    }
  }, 60_000);
});
