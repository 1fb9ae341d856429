/**
 * Property: for random (seeded) rule lists and connections, the offline evaluator's outcome is the
 * one a direct evaluation of the same expressions with the same CEL library gives. The direct side
 * knows nothing of the evaluator's machinery: variables are nested maps (`conn.geo.country_code`
 * is a member of a member), not flat aliases, it runs in this thread with no sandbox, and the rules'
 * order and actions are applied by the few lines of `expected` below. A variable the connection does
 * not set is an error there (no such key); the evaluator must then answer `unknown`, naming the rule.
 */
import { BlockList, isIP } from 'node:net';
import { Environment } from '@marcbachmann/cel-js';
import { describe, expect, it } from 'vitest';
import { checkPolicyExpression } from '../../src/traffic-policy/index.js';
import {
  evaluateEdge,
  ExpressionEvaluator,
  type Connection,
  type Outcome,
  type TrafficEdge,
} from '../../src/traffic/index.js';
import { createRng, suiteSeed, type Rng } from '../reliability/support/prng.js';

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/') as [string, string];
  const family = isIP(ip);
  if (family === 0 || isIP(base) !== family) return false;
  const list = new BlockList();
  list.addSubnet(base, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

const direct = new Environment({ homogeneousAggregateLiterals: false });
direct.registerVariable('conn', 'map<string, dyn>');
direct.registerFunction('inCidrRange(string, string): bool', inCidr);

const addresses = ['10.1.2.3', '203.0.113.7', '192.0.2.1', '2001:db8::5'];
const cidrs = ['10.0.0.0/8', '203.0.113.0/24', '192.0.2.0/25', '2001:db8::/32', '198.51.100.0/24'];

function atom(rng: Rng): string {
  switch (rng.int(7)) {
    case 0:
      return `conn.geo.country_code == '${rng.pick(['DE', 'FR'])}'`;
    case 1:
      return `conn.client_port ${rng.pick(['>', '<=', '=='])} ${rng.pick([1024, 443, 50000])}`;
    case 2:
      return `inCidrRange(conn.client_ip, '${rng.pick(cidrs)}')`;
    case 3:
      return `conn.tls.version in ['1.2', '1.3']`;
    case 4:
      return `conn.client_ip.startsWith('${rng.pick(['10.', '203.', '2001:'])}')`;
    case 5:
      return `conn.tls.sni == '${rng.pick(['db.example.com', 'other.example.com'])}'`;
    default:
      return `size(conn.geo.country_code) == 2`;
  }
}

function expression(rng: Rng, depth = 0): string {
  if (depth >= 2 || rng.chance(0.4)) return atom(rng);
  switch (rng.int(3)) {
    case 0:
      return `(${expression(rng, depth + 1)} && ${expression(rng, depth + 1)})`;
    case 1:
      return `(${expression(rng, depth + 1)} || ${expression(rng, depth + 1)})`;
    default:
      return `!(${expression(rng, depth + 1)})`;
  }
}

const actionLists = [
  [{ type: 'deny' }],
  [{ type: 'close-connection' }],
  [{ type: 'log', config: { metadata: { seen: true } } }],
  [{ type: 'log', config: { metadata: {} } }, { type: 'deny' }],
  [{ type: 'restrict-ips', config: { allow: ['203.0.113.0/24', '2001:db8::/32'] } }],
  [{ type: 'restrict-ips', config: { allow: ['10.0.0.0/8'], enforce: false } }],
] as const;

function randomEdge(rng: Rng): TrafficEdge {
  const inbound = Array.from({ length: 1 + rng.int(4) }, (_, i) => ({
    name: `r${i}`,
    expressions: Array.from({ length: rng.int(3) }, () => expression(rng)),
    actions: rng.pick(actionLists),
  }));
  return { key: 'tls_edges/db', hostports: ['db.example.com:443'], policy: { enabled: true, inbound } };
}

function randomConnection(rng: Rng): Connection {
  const out: Record<string, unknown> = {};
  if (rng.chance(0.85)) out['conn.client_ip'] = rng.pick(addresses);
  if (rng.chance(0.6)) out['conn.geo.country_code'] = rng.pick(['DE', 'FR']);
  if (rng.chance(0.6)) out['conn.client_port'] = rng.pick([443, 2000, 50000]);
  if (rng.chance(0.6)) out['conn.tls.version'] = rng.pick(['1.2', '1.3']);
  if (rng.chance(0.3)) out['conn.tls.sni'] = 'other.example.com';
  return out;
}

/** The connection as nested maps, with the documented default SNI of a one-hostport edge. */
function nested(connection: Connection): Record<string, unknown> {
  const conn: Record<string, unknown> = { tls: { sni: 'db.example.com' } };
  for (const [name, value] of Object.entries(connection)) {
    const path = name.split('.').slice(1);
    let at = conn;
    for (const seg of path.slice(0, -1)) at = (at[seg] ??= {}) as Record<string, unknown>;
    at[path.at(-1)!] = typeof value === 'number' ? BigInt(value) : value;
  }
  return { conn };
}

type Direct = true | false | 'undecided';

function evaluateDirectly(text: string, variables: Record<string, unknown>): Direct {
  try {
    const value: unknown = direct.parse(text)(variables);
    return value === true ? true : value === false ? false : 'undecided';
  } catch {
    return 'undecided';
  }
}

/** The verdict and the deciding name, from the direct evaluations and the documented actions. */
function expected(edge: TrafficEdge, connection: Connection): { verdict: string; name: string } {
  const variables = nested(connection);
  let admittedBy = 'default';
  for (const rule of edge.policy!.inbound) {
    const results = rule.expressions.map((e) => evaluateDirectly(e, variables));
    if (results.includes(false)) continue;
    if (results.includes('undecided')) {
      if (rule.actions.some((a) => a.type !== 'log')) return { verdict: 'unknown', name: rule.name };
      continue;
    }
    for (const action of rule.actions) {
      if (action.type === 'deny' || action.type === 'close-connection')
        return { verdict: 'deny', name: rule.name };
      if (action.type !== 'restrict-ips') continue;
      const ip = connection['conn.client_ip'];
      if (typeof ip !== 'string') return { verdict: 'unknown', name: rule.name };
      const config = action.config as { allow: string[]; enforce?: boolean };
      if (config.allow.some((c) => inCidr(ip, c))) admittedBy = rule.name;
      else if (config.enforce !== false) return { verdict: 'deny', name: rule.name };
    }
  }
  return { verdict: 'allow', name: admittedBy };
}

describe('the offline evaluation', () => {
  it('agrees with a direct CEL evaluation of the same expressions, over random rules and connections', async () => {
    const seed = suiteSeed('traffic evaluation property');
    const rng = createRng(seed);
    const cases = 160;
    const disagreements: string[] = [];
    const verdicts = new Set<string>();
    // A run's evaluations share one time budget (10 s): a fresh evaluator every 40 cases.
    for (let batch = 0; batch < cases / 40; batch++) {
      const expressions = new ExpressionEvaluator();
      try {
        for (let i = 0; i < 40; i++) {
          const edge = randomEdge(rng);
          for (const rule of edge.policy!.inbound)
            for (const e of rule.expressions) expect(checkPolicyExpression(e), e).toBeUndefined();
          const connection = randomConnection(rng);
          const outcome: Outcome = await evaluateEdge(edge, connection, {
            ipPolicies: new Map(),
            expressions,
          });
          const want = expected(edge, connection);
          verdicts.add(want.verdict);
          const got = { verdict: outcome.verdict, name: outcome.decision.name };
          if (got.verdict !== want.verdict || got.name !== want.name)
            disagreements.push(
              `${JSON.stringify(edge.policy!.inbound)} ${JSON.stringify(connection)}: evaluator ${JSON.stringify(got)}, direct ${JSON.stringify(want)}`,
            );
        }
      } finally {
        await expressions.close();
      }
    }
    expect(disagreements.slice(0, 3), `seed ${seed}`).toEqual([]);
    // The samples reach every verdict, or the property would say little.
    expect([...verdicts].sort(), `seed ${seed}`).toEqual(['allow', 'deny', 'unknown']);
  }, 240_000);
});
