/**
 * What each module and action does to a connection, evaluated offline over a config as the loader
 * reads it (docs/traffic-policy.md, "Evaluating an edge offline"): the IP restriction's allow and
 * deny rules, a policy the config does not hold, restrict-ips over the config's IP policies,
 * set-vars read by a later rule, forward-internal, modules turned off.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/index.js';
import {
  desiredTrafficModel,
  evaluateEdge,
  ExpressionEvaluator,
  type Outcome,
} from '../../src/traffic/index.js';

const config = `version: 1
scope: semantics
ip_policies:
  office:
    rules:
      - { cidr: 203.0.113.0/24, action: allow }
      - { cidr: 203.0.113.66/32, action: deny }
  partners:
    id: ipp_0123456789a
    rules:
      - { cidr: 192.0.2.0/24, action: allow }
tls_edges:
  restricted:
    hostports: ['a.example.com:443']
    ip_restriction: { ip_policies: [office] }
  switched-off:
    hostports: ['b.example.com:443']
    ip_restriction: { enabled: false, ip_policies: [office] }
    policy: { enabled: false, inbound: [{ name: never, actions: [{ type: deny }] }] }
  unmanaged-policy:
    hostports: ['c.example.com:443']
    ip_restriction: { ip_policies: [office, ipp_zzzzzzzzzzz] }
  rules:
    hostports: ['d.example.com:443']
    policy:
      inbound:
        - name: tier
          expressions: ["conn.client_ip.startsWith('192.')"]
          actions: [{ type: set-vars, config: { vars: [{ tier: partner }] } }]
        - name: partners-only
          expressions: ["has(vars.tier) && vars.tier == 'partner'"]
          actions: [{ type: restrict-ips, config: { ip_policies: [ipp_0123456789a] } }]
        - name: to-internal
          expressions: ["conn.tls.sni == 'd.example.com'"]
          actions: [{ type: forward-internal, config: { url: 'https://db.internal' } }]
        - name: never-reached
          actions: [{ type: deny }]
`;

let dir: string;
let model: Awaited<ReturnType<typeof desiredTrafficModel>>;
const expressions = new ExpressionEvaluator();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-traffic-semantics-'));
  await writeFile(join(dir, 'account.yaml'), config);
  const loaded = await loadDesiredState(['account.yaml'], { cwd: dir, env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
  model = await desiredTrafficModel(loaded.state, dir);
});
afterAll(async () => {
  await expressions.close();
  await rm(dir, { recursive: true, force: true });
});

function outcome(edge: string, clientIp?: string, more: Record<string, unknown> = {}): Promise<Outcome> {
  const connection = { ...(clientIp === undefined ? {} : { 'conn.client_ip': clientIp }), ...more };
  return evaluateEdge(model.edges.get(`tls_edges/${edge}`)!, connection, {
    ipPolicies: model.ipPolicies,
    expressions,
  });
}

describe('the IP restriction module', () => {
  it('allows an address in an allow rule, naming the policy and the rule line', async () => {
    const o = await outcome('restricted', '203.0.113.7');
    expect(o.verdict).toBe('allow');
    expect(o.decision).toMatchObject({
      by: 'ip_restriction',
      ipPolicy: 'office',
      location: { file: 'account.yaml', line: 6 },
    });
  });

  it('refuses an address a deny rule holds, though an allow rule holds it too', async () => {
    const o = await outcome('restricted', '203.0.113.66');
    expect(o.verdict).toBe('deny');
    expect(o.decision).toMatchObject({ ipPolicy: 'office', location: { line: 7 } });
    expect(o.decision.detail).toBe('IP restriction: 203.0.113.66 is in 203.0.113.66/32 (deny) of office');
  });

  it('refuses an address in no allow rule', async () => {
    expect((await outcome('restricted', '198.51.100.1')).decision.detail).toBe(
      'IP restriction: 198.51.100.1 is in no allowed CIDR',
    );
  });

  it('is unknown without the client address, and where a policy it uses is not in the config', async () => {
    expect((await outcome('restricted')).unknown).toEqual({
      variable: 'conn.client_ip',
      reason: 'the connection does not set conn.client_ip',
    });
    const o = await outcome('unmanaged-policy', '198.51.100.1');
    expect(o.verdict).toBe('unknown');
    expect(o.unknown?.reason).toBe('the rules of IP policy ipp_zzzzzzzzzzz are not known offline');
    // A deny rule of a known policy decides whatever the unknown one holds.
    expect((await outcome('unmanaged-policy', '203.0.113.66')).verdict).toBe('deny');
  });

  it('does nothing when turned off, nor does a policy turned off', async () => {
    const o = await outcome('switched-off', '198.51.100.1');
    expect(o.verdict).toBe('allow');
    expect(o.decision.by).toBe('default');
  });
});

describe('inbound rules', () => {
  it('set-vars sets what a later rule reads; restrict-ips reads a policy by its pinned id', async () => {
    const o = await outcome('rules', '10.0.0.1');
    expect(o.verdict).toBe('allow');
    expect(o.decision).toMatchObject({
      by: 'rule',
      name: 'to-internal',
      location: { file: 'account.yaml', line: 33 },
    });
    const partner = await outcome('rules', '192.0.2.9');
    expect(partner.actions.map((a) => `${a.rule}: ${a.type}: ${a.effect}`)).toEqual([
      'tier: set-vars: set vars tier',
      'partners-only: restrict-ips: allowed: 192.0.2.9 is in 192.0.2.0/24 (allow) of partners',
      'to-internal: forward-internal: forwarded to https://db.internal',
    ]);
  });

  it('forward-internal ends the evaluation: a later deny is not reached', async () => {
    const o = await outcome('rules', '10.0.0.1');
    expect(o.actions.some((a) => a.rule === 'never-reached')).toBe(false);
    // Another SNI than the edge's: forward-internal's rule does not apply, the deny does.
    const other = await outcome('rules', '10.0.0.1', { 'conn.tls.sni': 'e.example.com' });
    expect(other.verdict).toBe('deny');
    expect(other.decision.name).toBe('never-reached');
  });
});
