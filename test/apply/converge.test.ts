/**
 * Against the emulator over real HTTP: after examples/ is synced, updates, replaces and deletes of
 * every kind converge (a new plan is empty), referenced objects are repointed before they go, and
 * the emulator never answers 409 (an in-use delete or a natural-key collision).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DesiredState } from '../../src/resources/index.js';
import { examplesState, markerCounts, startHarness, syncState, withFields, type Harness } from './harness.js';

const fixture = (name: string) => new URL(`../fixtures/pki/${name}`, import.meta.url);

async function expectConverged(h: Harness, desired: DesiredState): Promise<void> {
  const { computed, result } = await syncState(h, desired);
  expect(result.operations.filter((r) => r.status !== 'done')).toEqual([]);
  expect(h.requests.filter((r) => r.status === 409 || r.status === 400)).toEqual([]);
  const again = await syncState(h, desired);
  expect(again.computed.plan.operations.map((op) => op.id)).toEqual([]);
  expect([...(await markerCounts(h.client, desired.scope)).values()].every((n) => n === 1)).toBe(true);
  expect(computed.plan.operations.length).toBeGreaterThan(0);
}

/** Every object with its references renamed from `from` (and keys under it) to `to`. */
function renameKey(state: DesiredState, from: string, to: string): DesiredState {
  const rename = (s: string) =>
    s === from ? to : s.startsWith(`${from}/`) ? `${to}${s.slice(from.length)}` : s;
  const deep = (v: unknown): unknown =>
    typeof v === 'string'
      ? rename(v)
      : Array.isArray(v)
        ? v.map(deep)
        : typeof v === 'object' && v !== null
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [rename(k), deep(x)]))
          : v;
  return {
    ...state,
    objects: state.objects.map((o) => ({
      ...o,
      key: rename(o.key),
      ...(o.parentKey === undefined ? {} : { parentKey: rename(o.parentKey) }),
      fields: deep(o.fields) as Record<string, unknown>,
    })),
  };
}

describe('convergence after examples/ is synced', () => {
  let h: Harness;
  let base: DesiredState;
  beforeEach(async () => {
    h = await startHarness();
    base = await examplesState();
    const { result } = await syncState(h, base);
    expect(result.status).toBe('succeeded');
    h.requests.length = 0;
  });
  afterEach(async () => {
    await h.close();
  });

  it('updates every kind in place, modules and secrets included', async () => {
    let desired: DesiredState = {
      ...base,
      objects: base.objects.map((o) => ({ ...o, fields: { ...o.fields, description: `changed ${o.key}` } })),
    };
    const route = (m: string) => `https_edges/web/routes/path_prefix:${m}`;
    desired = withFields(desired, route('/admin'), (f) => ({
      ...f,
      oidc: { ...(f.oidc as object), client_secret: 'rotated' },
    }));
    desired = withFields(desired, route('/'), (f) => ({
      ...f,
      circuit_breaker: { ...(f.circuit_breaker as object), num_buckets: 20 },
    }));
    desired = withFields(desired, 'tls_edges/db', ({ policy: _removed, ...f }) => f);
    desired = withFields(desired, 'https_edges/web', (f) => ({
      ...f,
      tls_termination: { min_version: '1.3' },
    }));
    desired = withFields(desired, 'ip_restrictions/api', (f) => ({
      ...f,
      ip_policies: ['ip_policies/blocklist'],
    }));
    desired = withFields(desired, 'backends/web-split', (f) => ({
      ...f,
      backends: { 'backends/web': 50, 'backends/web-canary': 50 },
    }));
    desired = withFields(desired, 'event_destinations/monitoring', (f) => ({
      ...f,
      target: { monitoring: { api_key: 'rotated-key', service: 'acctsync', site: 'example.com' } },
    }));
    await expectConverged(h, desired);
    expect(h.requests.some((r) => r.method === 'PUT' && r.path.endsWith('/oidc'))).toBe(true);
    expect(h.requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/policy'))).toBe(true);
  });

  it('replaces objects whose immutable fields changed, referenced ones included', async () => {
    const ca2 = await readFile(new URL('./fixtures/ca2.crt', import.meta.url), 'utf8');
    const ecdsaCert = await readFile(fixture('leaf-ecdsa.crt'), 'utf8');
    const ecdsaKey = await readFile(fixture('leaf-ecdsa.key'), 'utf8');
    const sshRsa = (await readFile(fixture('ssh-rsa.pub'), 'utf8')).trim();
    let desired = withFields(base, 'certificate_authorities/client-ca', (f) => ({ ...f, ca_pem: ca2 }));
    desired = withFields(desired, 'tls_certificates/api-cert', (f) => ({
      ...f,
      certificate_pem: ecdsaCert,
      private_key_pem: ecdsaKey,
    }));
    desired = withFields(desired, 'ssh_credentials/ops-laptop', (f) => ({ ...f, public_key: sshRsa }));
    desired = withFields(desired, 'ip_restrictions/dashboard', (f) => ({ ...f, type: 'agent' }));
    desired = withFields(desired, 'ip_policies/blocklist/rules/198.51.100.7/32', (f) => ({
      ...f,
      action: 'allow',
    }));
    desired = withFields(desired, 'reserved_addrs/ssh-gateway', (f) => ({ ...f, region: 'us' }));
    await expectConverged(h, desired);
    const deletes = h.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.some((r) => r.path.startsWith('/certificate_authorities/'))).toBe(true);
    expect(deletes.some((r) => r.path.startsWith('/tls_certificates/'))).toBe(true);
  });

  it('replaces a policy used by restrictions, edges and routes: repoints first, then deletes', async () => {
    const desired = renameKey(base, 'ip_policies/office', 'ip_policies/office-v2');
    await expectConverged(h, desired);
    const policyDelete = h.requests.findIndex(
      (r) => r.method === 'DELETE' && r.path.startsWith('/ip_policies/'),
    );
    const repoints = h.requests.flatMap((r, i) => (r.method === 'PATCH' || r.method === 'PUT' ? [i] : []));
    expect(policyDelete).toBeGreaterThan(-1);
    expect(Math.max(...repoints)).toBeLessThan(policyDelete);
  });

  it('deletes objects that left the config, referenced ones after their referrers moved', async () => {
    const desired = {
      ...base,
      objects: base.objects
        .filter(
          (o) =>
            ![
              'api_keys/ci-deploy',
              'backends/web-canary',
              'https_edges/web/routes/exact_path:/team',
            ].includes(o.key),
        )
        .map((o) =>
          o.key === 'backends/web-split'
            ? { ...o, fields: { ...o.fields, backends: { 'backends/web': 100 } } }
            : o,
        ),
    };
    await expectConverged(h, desired);
    expect(h.requests.filter((r) => r.method === 'DELETE')).toHaveLength(3);
  });

  it('deletes an edge and the backends only its routes use: the edge (and its routes) go first', async () => {
    const usedOnlyByRoutes = (key: string) =>
      key.startsWith('backends/') &&
      base.objects
        .filter((o) => JSON.stringify(o.fields).includes(`"${key}"`))
        .every((o) => o.key.startsWith('https_edges/web/') || o.key.startsWith('backends/'));
    const desired = {
      ...base,
      objects: base.objects.filter((o) => !o.key.startsWith('https_edges/web') && !usedOnlyByRoutes(o.key)),
    };
    expect(base.objects.length - desired.objects.length).toBeGreaterThan(5);
    const { computed, result } = await syncState(h, desired, { guards: { force: true } });
    expect(result.operations.filter((r) => r.status !== 'done')).toEqual([]);
    expect(h.requests.filter((r) => r.status === 409)).toEqual([]);
    const deletes = h.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
    const edgeDelete = deletes.findIndex((p) => p.startsWith('/edges/https/'));
    const firstBackendDelete = deletes.findIndex((p) => p.startsWith('/backends/'));
    expect(edgeDelete).toBeGreaterThan(-1);
    expect(firstBackendDelete).toBeGreaterThan(edgeDelete);
    expect(computed.plan.operations.some((op) => op.kind === 'https_edge_routes')).toBe(false);
    expect((await syncState(h, desired)).computed.plan.operations).toEqual([]);
  });
});
