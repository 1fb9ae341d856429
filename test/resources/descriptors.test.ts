import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  allDescriptors,
  descriptorOfId,
  moduleFields,
  type Field,
  type KindDescriptor,
} from '../../src/resources/index.js';

const specDir = fileURLToPath(new URL('../../../shared/spec/', import.meta.url));
const spec = readFileSync(`${specDir}account-api.md`, 'utf8');
const gaps = readFileSync(`${specDir}gaps.md`, 'utf8');

/** Rows of the markdown table that follows `heading`. */
function tableAfter(doc: string, heading: string): string[][] {
  const start = doc.indexOf(heading);
  expect(start, `heading ${heading} in the spec`).toBeGreaterThanOrEqual(0);
  const lines = doc.slice(start).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

/** Splits "a, b {x, y}, c (`p`/`q`)" at top-level commas and keeps each item's leading name. */
function fieldNames(cell: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of cell) {
    if (ch === '{' || ch === '(') depth++;
    if (ch === '}' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      items.push(current);
      current = '';
    } else current += ch;
  }
  items.push(current);
  return items.map((i) => /^\s*([a-z_]+)/.exec(i)?.[1]).filter((n): n is string => n !== undefined);
}

function byPath(path: string): KindDescriptor {
  const d = allDescriptors.find((x) => x.path === path);
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

describe('every kind of the spec has a descriptor', () => {
  const collections = tableAfter(spec, '### Collections');

  it('covers each collection path and list member of the spec', () => {
    expect(collections.length).toBeGreaterThanOrEqual(16);
    for (const [pathCell, memberCell] of collections) {
      const d = byPath(pathCell!.replace(/`/g, ''));
      expect(d.listMember, d.path).toBe(memberCell);
    }
  });

  it('accepts every create and update field the spec lists, under its request name', () => {
    for (const [pathCell, , createCell, updateCell] of collections) {
      const d = byPath(pathCell!.replace(/`/g, ''));
      const create = acceptedNames(d, 'create');
      for (const name of fieldNames(createCell!)) expect(create, `${d.path} create ${name}`).toContain(name);
      if (/^(same|\(see)/.test(updateCell!)) continue;
      const update = acceptedNames(d, 'update');
      for (const name of fieldNames(updateCell!.replace(/^same five fields and/, ''))) {
        expect(update, `${d.path} update ${name}`).toContain(name);
      }
    }
  });

  it('covers the resources gaps.md adds', () => {
    const added = [...gaps.matchAll(/`(\/[a-z_/{}]+)`(?: \(list member `([a-z_]+)`\))?/g)];
    expect(added.length).toBeGreaterThanOrEqual(5);
    for (const [, path, member] of added) {
      if (path!.endsWith('/mutual_tls') || path!.endsWith('/tls_termination') || path!.endsWith('{id}'))
        continue;
      const d = byPath(path!);
      if (member) expect(d.listMember).toBe(member);
    }
  });

  it('covers the event source, tunnel session and module endpoints', () => {
    expect(byPath('/event_subscriptions/{subscription_id}/sources').pathKey).toBe('type');
    expect(byPath('/tunnel_sessions').listMember).toBe('tunnel_sessions');
    const modules = tableAfter(spec, '### Route and edge modules');
    const routeModules = moduleFields(byPath('/edges/https/{edge_id}/routes')).map(([n]) => n);
    const tlsModules = moduleFields(byPath('/edges/tls')).map(([n]) => n);
    for (const [, suffixCell] of modules) {
      const suffix = /\/([a-z_]+)/.exec(suffixCell!)![1]!;
      expect(suffixCell!.includes('TLS edge') ? tlsModules : routeModules).toContain(suffix);
    }
    expect(
      moduleFields(byPath('/edges/https'))
        .map(([n]) => n)
        .sort(),
    ).toEqual(['mutual_tls', 'tls_termination']);
  });

  it('knows every id prefix of the conventions', () => {
    const line = spec.split('\n').find((l) => l.includes('Identifiers are opaque strings'))!;
    const prefixes = [...line.matchAll(/`([a-z]+_)`/g)].map((m) => m[1]!).filter((p) => p !== 'usr_');
    expect(prefixes.length).toBeGreaterThanOrEqual(20);
    for (const prefix of prefixes) expect(descriptorOfId(`${prefix}2abc`)?.idPrefix, prefix).toBe(prefix);
  });

  it('marks immutable exactly the fields gaps.md lists', () => {
    const paragraph = gaps.slice(gaps.indexOf('Changing any of these means a new object'));
    const list = paragraph.slice(paragraph.indexOf(':') + 1, paragraph.indexOf('.\n'));
    const expected = new Map<string, string[]>();
    for (const part of list.split(';')) {
      const title = part.slice(0, part.indexOf('`')).trim().toLowerCase();
      expected.set(
        title,
        [...part.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!),
      );
    }
    expect(expected.size).toBe(10);
    for (const d of allDescriptors) {
      const immutable = Object.entries(d.fields)
        .filter(([, f]) => f.write === 'immutable')
        .map(([n]) => n)
        .sort();
      const listed = expected.get(d.title.toLowerCase());
      if (listed) expect(immutable, d.title).toEqual([...listed].sort());
      else if (d.kind !== 'endpoint_configurations' && d.kind !== 'event_sources') {
        expect(immutable, `${d.title} has no immutable field in gaps.md`).toEqual([]);
      }
    }
  });

  it('gives every writable field a description and a known shape', () => {
    for (const d of allDescriptors) {
      for (const [name, f] of Object.entries(d.fields)) {
        expect(f.description.length, `${d.kind}.${name}`).toBeGreaterThan(3);
      }
      if (d.operations.create) expect(d.idPrefix ?? d.pathKey, d.kind).toBeDefined();
    }
  });
});
