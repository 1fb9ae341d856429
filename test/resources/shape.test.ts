import { describe, expect, it } from 'vitest';
import {
  descriptors,
  fromRequestBody,
  mapReferences,
  toRequestBody,
  withDefaults,
  writableValues,
} from '../../src/resources/index.js';

describe('shape conversions driven by the descriptors', () => {
  const edge = descriptors.tls_edges.fields;

  it('turns a record into plain writable values: Refs to ids, read-only members dropped', () => {
    const record = {
      id: 'edgtls_1',
      uri: 'http://x/edges/tls/edgtls_1',
      created_at: '2026-01-01T00:00:00Z',
      description: 'db',
      metadata: '',
      hostports: ['db.example.com:443'],
      backend: { enabled: true, backend: { id: 'bkdtg_1', uri: 'http://x/backends/tunnel_group/bkdtg_1' } },
      ip_restriction: { enabled: false, ip_policies: [{ id: 'ipp_1', uri: 'u' }] },
      mutual_tls: null,
      tls_termination: null,
      policy: null,
    };
    expect(writableValues(edge, record)).toEqual({
      description: 'db',
      metadata: '',
      hostports: ['db.example.com:443'],
      backend: { enabled: true, backend: 'bkdtg_1' },
      ip_restriction: { enabled: false, ip_policies: ['ipp_1'] },
      mutual_tls: null,
      tls_termination: null,
      policy: null,
    });
  });

  it('renames members to request names and back, inside modules too', () => {
    const values = {
      hostports: ['a.example.com:443'],
      backend: { backend: 'bkdhr_1' },
      ip_restriction: { ip_policies: ['ipp_1'] },
    };
    const body = toRequestBody(edge, values);
    expect(body).toEqual({
      hostports: ['a.example.com:443'],
      backend: { backend_id: 'bkdhr_1' },
      ip_restriction: { ip_policy_ids: ['ipp_1'] },
    });
    expect(fromRequestBody(edge, body)).toEqual(values);
  });

  it('fills the defaults the service returns for omitted members', () => {
    expect(withDefaults(edge, { backend: { backend: 'bkdhr_1' } })).toEqual({
      description: '',
      metadata: '',
      hostports: [],
      backend: { enabled: true, backend: 'bkdhr_1' },
      ip_restriction: null,
      mutual_tls: null,
      tls_termination: null,
      policy: null,
    });
  });

  it('rewrites every kind of reference: single, list, inside modules and map keys', () => {
    const ids: Record<string, string> = {
      'backends/a': 'bkdhr_a',
      'backends/b': 'bkdtg_b',
      'ip_policies/o': 'ipp_o',
    };
    const rewrite = (ref: string) => ids[ref] ?? ref;
    expect(
      mapReferences(
        descriptors.weighted_backends.fields,
        { backends: { 'backends/a': 10, 'backends/b': 90 } },
        rewrite,
      ),
    ).toEqual({
      backends: { bkdhr_a: 10, bkdtg_b: 90 },
    });
    expect(
      mapReferences(descriptors.failover_backends.fields, { backends: ['backends/b', 'bkdhr_x'] }, rewrite),
    ).toEqual({
      backends: ['bkdtg_b', 'bkdhr_x'],
    });
    expect(
      mapReferences(
        edge,
        {
          description: 'backends/a',
          backend: { backend: 'backends/a' },
          ip_restriction: { ip_policies: ['ip_policies/o'] },
        },
        rewrite,
      ),
    ).toEqual({
      description: 'backends/a',
      backend: { backend: 'bkdhr_a' },
      ip_restriction: { ip_policies: ['ipp_o'] },
    });
  });
});
