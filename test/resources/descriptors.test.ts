import { describe, expect, it } from 'vitest';
import {
  builtinKinds,
  descriptorOfId,
  moduleFields,
  type Field,
  type KindDescriptor,
} from '../../src/resources/index.js';
import {
  collections,
  idPrefixes,
  immutableFields,
  modules,
  undescribedCollections,
} from '../fixtures/api-reference.js';

function byPath(path: string): KindDescriptor {
  const d = builtinKinds.all.find((x) => x.path === path);
  expect(d, `a descriptor for ${path}`).toBeDefined();
  return d!;
}

/** Write names a body of `mode` accepts at the top level. */
function acceptedNames(d: KindDescriptor, mode: 'create' | 'update'): Set<string> {
  const ok = (f: Field): boolean =>
    mode === 'create'
      ? f.write === 'mutable' || f.write === 'immutable'
      : f.write === 'mutable' || f.write === 'update-only';
  return new Set(Object.entries(d.fields).flatMap(([name, f]) => (ok(f) ? [f.writeAs ?? name] : [])));
}

describe('every kind of the API reference has a descriptor', () => {
  it('covers each collection path and list member of the reference', () => {
    expect(collections.length).toBeGreaterThanOrEqual(16);
    for (const c of collections) expect(byPath(c.path).listMember, c.path).toBe(c.listMember);
  });

  it('accepts every create and update field the reference lists, under its request name', () => {
    for (const c of collections) {
      const d = byPath(c.path);
      const create = acceptedNames(d, 'create');
      for (const name of c.create) expect(create, `${d.path} create ${name}`).toContain(name);
      const update = acceptedNames(d, 'update');
      for (const name of c.update ?? []) expect(update, `${d.path} update ${name}`).toContain(name);
    }
  });

  it('covers the resources the reference uses without describing them', () => {
    for (const c of undescribedCollections) expect(byPath(c.path).listMember, c.path).toBe(c.listMember);
  });

  it('covers the event source, tunnel session and module endpoints', () => {
    expect(byPath('/event_subscriptions/{subscription_id}/sources').pathKey).toBe('type');
    expect(byPath('/tunnel_sessions').listMember).toBe('tunnel_sessions');
    const owners = {
      route: byPath('/edges/https/{edge_id}/routes'),
      tls_edge: byPath('/edges/tls'),
      https_edge: byPath('/edges/https'),
    };
    for (const { suffix, owner } of modules) {
      expect(
        moduleFields(owners[owner]).map(([n]) => n),
        `${owner} /${suffix}`,
      ).toContain(suffix);
    }
    expect(
      moduleFields(owners.https_edge)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['mutual_tls', 'tls_termination']);
  });

  it('knows every id prefix of the conventions', () => {
    expect(idPrefixes.length).toBeGreaterThanOrEqual(20);
    for (const prefix of idPrefixes) expect(descriptorOfId(`${prefix}2abc`)?.idPrefix, prefix).toBe(prefix);
  });

  it('marks immutable exactly the fields the service cannot change in place', () => {
    expect(immutableFields.size).toBe(10);
    for (const d of builtinKinds.all) {
      const immutable = Object.entries(d.fields)
        .filter(([, f]) => f.write === 'immutable')
        .map(([n]) => n)
        .sort();
      const listed = immutableFields.get(d.title.toLowerCase());
      if (listed) expect(immutable, d.title).toEqual([...listed].sort());
      else if (d.kind !== 'endpoint_configurations' && d.kind !== 'event_sources') {
        expect(immutable, `${d.title} has no immutable field in the reference`).toEqual([]);
      }
    }
  });

  it('gives every writable field a description and a known shape', () => {
    for (const d of builtinKinds.all) {
      for (const [name, f] of Object.entries(d.fields)) {
        expect(f.description.length, `${d.kind}.${name}`).toBeGreaterThan(3);
      }
      if (d.operations.create) expect(d.idPrefix ?? d.pathKey, d.kind).toBeDefined();
    }
  });
});
