import { describe, expect, it } from 'vitest';
import { descriptors, findReferences } from '../../src/resources/index.js';

describe('references found through the value walk', () => {
  // The emulator's 400 (223) names the field at `path`, and the loader points at its line.
  it('reports each reference with its path, inside objects, modules and lists, and map keys as keys', () => {
    const edge = findReferences(descriptors.tls_edges.fields, {
      description: 'ipp_not_a_ref',
      backend: { enabled: true, backend: 'backends/a' },
      ip_restriction: { enabled: true, ip_policies: ['ip_policies/office', 'ipp_1'] },
      mutual_tls: null,
    });
    expect(edge.map(({ ref, path, atKey }) => ({ ref, path, atKey }))).toEqual([
      { ref: 'backends/a', path: ['backend', 'backend'], atKey: false },
      { ref: 'ip_policies/office', path: ['ip_restriction', 'ip_policies', 0], atKey: false },
      { ref: 'ipp_1', path: ['ip_restriction', 'ip_policies', 1], atKey: false },
    ]);
    expect(edge[1]?.target.kinds).toEqual(['ip_policies']);

    const weighted = findReferences(descriptors.weighted_backends.fields, { backends: { 'backends/a': 10 } });
    expect(weighted.map(({ ref, path, atKey }) => ({ ref, path, atKey }))).toEqual([
      { ref: 'backends/a', path: ['backends', 'backends/a'], atKey: true },
    ]);
  });
});
