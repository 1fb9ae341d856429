import { describe, expect, it } from 'vitest';
import { descriptorOf } from '../../src/resources/index.js';
import { diffObject, structuralDiff } from '../../src/plan-format/diff.js';

const route = descriptorOf('https_edge_routes');
const edge = descriptorOf('https_edges');

describe('structuralDiff', () => {
  it('descends to the changed leaf of a module and counts what did not change', () => {
    const before = {
      match_type: 'path_prefix',
      match: '/',
      circuit_breaker: { enabled: true, num_buckets: 10, error_threshold_percentage: 0.5 },
    };
    const after = {
      match_type: 'path_prefix',
      match: '/',
      circuit_breaker: { enabled: true, num_buckets: 20, error_threshold_percentage: 0.5 },
    };
    expect(structuralDiff(route, before, after)).toEqual({
      unchanged: 2,
      changes: [
        {
          name: 'circuit_breaker',
          action: 'update',
          unchanged: 2,
          children: [{ name: 'num_buckets', action: 'update', before: 10, after: 20 }],
        },
      ],
    });
  });

  it('shows an added module as a create and a removed one as a delete', () => {
    const diff = structuralDiff(
      route,
      { match: '/', oidc: { enabled: true } },
      { match: '/', circuit_breaker: { enabled: true } },
    );
    expect(diff.changes).toEqual([
      { name: 'circuit_breaker', action: 'create', after: { enabled: true } },
      { name: 'oidc', action: 'delete', before: { enabled: true } },
    ]);
  });

  it('never shows a server default the desired state does not have', () => {
    const diff = structuralDiff(route, { match: '/', description: 'set by the service' }, { match: '/' });
    expect(diff.changes).toEqual([]);
  });

  it('diffs unordered string lists element by element', () => {
    const diff = structuralDiff(
      edge,
      { hostports: ['a.example.com:443', 'b.example.com:443'] },
      { hostports: ['a.example.com:443', 'c.example.com:443'] },
    );
    expect(diff.changes).toEqual([
      {
        name: 'hostports',
        action: 'update',
        unchanged: 1,
        list: true,
        children: [
          { name: '"c.example.com:443"', action: 'create', after: 'c.example.com:443' },
          { name: '"b.example.com:443"', action: 'delete', before: 'b.example.com:443' },
        ],
      },
    ]);
  });

  it('diffs policy rules by name, down to the changed member of one rule', () => {
    const rule = (name: string, expr: string) => ({ name, expressions: [expr], actions: [{ type: 'deny' }] });
    const before = {
      policy: { enabled: true, inbound: [rule('block', 'a'), rule('geo', 'x')], outbound: [] },
    };
    const after = {
      policy: {
        enabled: true,
        inbound: [rule('block', 'b'), rule('geo', 'x'), rule('new', 'n')],
        outbound: [],
      },
    };
    const [policy] = structuralDiff(edge, before, after).changes;
    expect(policy).toMatchObject({ name: 'policy', action: 'update', unchanged: 2 });
    expect(policy?.children?.[0]).toMatchObject({
      name: 'inbound',
      unchanged: 1,
      children: [
        {
          name: '"block"',
          action: 'update',
          unchanged: 2,
          children: [{ name: 'expressions', action: 'update', before: ['a'], after: ['b'] }],
        },
        { name: '"new"', action: 'create' },
      ],
    });
  });

  it('shows every written member of a create', () => {
    const diff = structuralDiff(route, undefined, { match_type: 'exact_path', match: '/x' });
    expect(diff.changes.map((c) => c.action)).toEqual(['create', 'create']);
  });
});

describe("diffObject (the plan's field changes, read off the same tree)", () => {
  it('descends into modules to the leaf, changes lists whole, and unsets what the desired side lacks', () => {
    const live = {
      match: '/',
      description: 'set by hand',
      circuit_breaker: { enabled: true, num_buckets: 10 },
      ip_restriction: { ip_policies: ['ipp_1', 'ipp_2'] },
      oidc: { enabled: true },
    };
    const desired = {
      match: '/',
      circuit_breaker: { enabled: true, num_buckets: 20 },
      ip_restriction: { ip_policies: ['ipp_1', 'ipp_3'] },
      saml: { enabled: true },
    };
    expect(diffObject(route, live, desired)).toEqual([
      { path: ['description'], before: 'set by hand', after: undefined },
      { path: ['ip_restriction', 'ip_policies'], before: ['ipp_1', 'ipp_2'], after: ['ipp_1', 'ipp_3'] },
      { path: ['circuit_breaker', 'num_buckets'], before: 10, after: 20 },
      { path: ['oidc'], before: { enabled: true } },
      { path: ['saml'], after: { enabled: true } },
    ]);
  });
});
