/**
 * The derived samples a plan's what-if runs when no traffic test names an edge: an address inside
 * and one just outside each range, the addresses expressions name, in numeric order, bounded.
 */
import { describe, expect, it } from 'vitest';
import { rangeSamples } from '../../src/resources/index.js';
import type { TrafficEdge, TrafficIpPolicy } from '../../src/traffic/index.js';
import { derivedSamples } from '../../src/what-if/samples.js';

function side(edge: Partial<TrafficEdge>, policies: Record<string, TrafficIpPolicy> = {}) {
  return {
    edge: { key: 'tls_edges/db', hostports: [], ...edge },
    ipPolicies: new Map(Object.entries(policies)),
  };
}

describe('rangeSamples', () => {
  it.each([
    ['203.0.113.0/24', { inside: '203.0.113.1', outside: '203.0.114.0' }],
    ['203.0.113.7', { inside: '203.0.113.7', outside: '203.0.113.8' }],
    ['10.1.2.3/8', { inside: '10.0.0.1', outside: '11.0.0.0' }],
    ['198.51.100.6/31', { inside: '198.51.100.6', outside: '198.51.100.8' }],
    ['255.255.255.0/24', { inside: '255.255.255.1', outside: '255.255.254.255' }],
    ['0.0.0.0/0', { inside: '0.0.0.1' }],
    ['2001:db8:1234::/48', { inside: '2001:db8:1234::1', outside: '2001:db8:1235::' }],
    ['::/0', { inside: '::1' }],
  ])('%s', (cidr, expected) => {
    expect(rangeSamples(cidr)).toEqual(expected);
  });

  it('is undefined for text that is no address or range', () => {
    expect(rangeSamples('office')).toBeUndefined();
    expect(rangeSamples('10.0.0.0/33')).toBeUndefined();
  });
});

describe('derivedSamples', () => {
  it("takes both sides' IP policies, restrict-ips lists and expression literals, sorted, IPv4 first", () => {
    const office = { name: 'office', rules: [{ cidr: '2001:db8::/32', action: 'allow' as const }] };
    const before = side({ ipRestriction: { enabled: true, ipPolicies: ['ipp_1'] } }, { ipp_1: office });
    const after = side({
      policy: {
        enabled: true,
        inbound: [
          {
            name: 'r',
            expressions: ['conn.client_ip == \'198.51.100.7\' || inCidrRange(conn.client_ip, "10.0.0.0/8")'],
            actions: [{ type: 'restrict-ips', config: { deny: ['192.0.2.0/24'] } }],
          },
        ],
      },
    });
    expect(derivedSamples([before, after])).toEqual({
      samples: [
        '10.0.0.1',
        '11.0.0.0',
        '192.0.2.1',
        '192.0.3.0',
        '198.51.100.7',
        '2001:db8::1',
        '2001:db9::',
      ].map((ip) => ({ 'conn.client_ip': ip })),
      leftOut: 0,
    });
  });

  it('keeps the first 64 and counts the rest', () => {
    const rules = Array.from({ length: 40 }, (_, i) => ({
      cidr: `10.${i}.0.0/16`,
      action: 'allow' as const,
    }));
    const both = side({ ipRestriction: { enabled: true, ipPolicies: ['p'] } }, { p: { name: 'p', rules } });
    const { samples, leftOut } = derivedSamples([both, both]);
    expect(samples).toHaveLength(64);
    expect(leftOut).toBe(80 - 64);
    expect(samples[0]).toEqual({ 'conn.client_ip': '10.0.0.1' });
  });
});
