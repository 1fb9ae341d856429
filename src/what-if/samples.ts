/**
 * The sample connections a changed edge is tried with when no `--traffic-tests` name it: for every
 * range either side of the change mentions (its IP policies' rules, a `restrict-ips` action's
 * lists, a CIDR in a rule's expression) one address inside and one just outside, and every address
 * an expression names. Sorted and bounded, so the same edges always give the same samples.
 */
import { compareAddresses, rangeSamples } from '../resources/index.js';
import type { Connection } from '../traffic/index.js';
import type { EdgeSide } from './edge-sides.js';

/** At most this many samples per edge, derived or from tests; the rest are counted, not evaluated. */
export const maxSamplesPerEdge = 64;

/** The texts between quotes in a CEL expression: where its addresses and ranges are written. */
const stringLiteral = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;

function literals(expression: string): string[] {
  return [...expression.matchAll(stringLiteral)].map((m) => m[1] ?? m[2] ?? '');
}

/** The ranges and addresses one side's modules and rules mention. */
function mentioned({ edge, ipPolicies }: EdgeSide): { ranges: string[]; addresses: string[] } {
  const rangesOf = (refs: readonly unknown[]): string[] =>
    refs.flatMap((ref) =>
      (typeof ref === 'string' ? (ipPolicies.get(ref)?.rules ?? []) : []).map((r) => r.cidr),
    );
  const ranges = rangesOf(edge.ipRestriction?.ipPolicies ?? []);
  const addresses: string[] = [];
  for (const rule of edge.policy?.inbound ?? []) {
    for (const text of rule.expressions.flatMap(literals)) {
      if (text.includes('/')) ranges.push(text);
      else addresses.push(text);
    }
    for (const { config } of rule.actions) {
      for (const list of [config?.allow, config?.deny])
        if (Array.isArray(list)) ranges.push(...list.filter((c): c is string => typeof c === 'string'));
      if (Array.isArray(config?.ip_policies)) ranges.push(...rangesOf(config.ip_policies));
    }
  }
  return { ranges, addresses };
}

/** The derived samples of an edge's two sides, and how many the bound left out. */
export function derivedSamples(sides: readonly EdgeSide[]): {
  samples: Connection[];
  leftOut: number;
} {
  const found = new Set<string>();
  for (const side of sides) {
    const { ranges, addresses } = mentioned(side);
    for (const range of ranges) {
      const samples = rangeSamples(range);
      if (samples === undefined) continue;
      found.add(samples.inside);
      if (samples.outside !== undefined) found.add(samples.outside);
    }
    for (const address of addresses) {
      const samples = rangeSamples(address);
      if (samples !== undefined) found.add(samples.inside);
    }
  }
  const all = [...found].sort(compareAddresses);
  return {
    samples: all.slice(0, maxSamplesPerEdge).map((ip) => ({ 'conn.client_ip': ip })),
    leftOut: Math.max(0, all.length - maxSamplesPerEdge),
  };
}

/** `203.0.113.7 (DE)`: the address, and the country when the connection sets one. */
export function connectionLabel(connection: Connection): string {
  const ip = connection['conn.client_ip'];
  const country = connection['conn.geo.country_code'];
  const address = typeof ip === 'string' ? ip : 'a connection with no client_ip';
  return typeof country === 'string' ? `${address} (${country})` : address;
}
