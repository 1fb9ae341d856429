/**
 * Desired states built from examples/ and changed field by field from the descriptors alone: an
 * object with everything it needs, and a different valid value for a field, for the suite that
 * walks every kind (`test/apply/contract.test.ts`).
 */
import { readFileSync } from 'node:fs';
import {
  descriptorOf,
  findReferences,
  isObjectKey,
  type DesiredObject,
  type DesiredState,
  type Field,
  type FieldType,
} from '../../src/resources/index.js';

/** `o` and everything it needs from `examples`: referenced objects and parents, transitively. */
export function closure(examples: DesiredState, o: DesiredObject): DesiredState {
  const byKey = new Map(examples.objects.map((x) => [x.key, x]));
  const keep = new Set<string>();
  const visit = (x: DesiredObject) => {
    if (keep.has(x.key)) return;
    keep.add(x.key);
    const refs = findReferences(descriptorOf(x.kind).fields, x.fields).map((r) => r.ref);
    if (x.parentKey !== undefined) refs.push(x.parentKey);
    for (const r of refs) {
      const target = isObjectKey(r) ? byKey.get(r) : undefined;
      if (target) visit(target);
    }
  };
  visit(o);
  return { scope: 'test', objects: examples.objects.filter((x) => keep.has(x.key)) };
}

/** `state` without the object `key` and its children. */
export function without(state: DesiredState, key: string): DesiredState {
  return { ...state, objects: state.objects.filter((x) => x.key !== key && x.parentKey !== key) };
}

/** `state` with the object `key`'s fields replaced by `fields`. */
export function withFields(state: DesiredState, key: string, fields: Record<string, unknown>): DesiredState {
  return { ...state, objects: state.objects.map((x) => (x.key === key ? { ...x, fields } : x)) };
}

const pki = (name: string) => readFileSync(new URL(`../fixtures/pki/${name}`, import.meta.url), 'utf8');

const formatValues: Record<string, unknown> = {
  cidr: '192.0.2.0/24',
  hostname: 'changed.example.net',
  domain: 'changed.example.net',
  url: 'https://changed.example.net',
  'pem-certificate': pki('leaf-ecdsa.crt'),
  'pem-certificate-chain': pki('leaf-ecdsa.crt'),
  'pem-private-key': pki('leaf-ecdsa.key'),
  'ssh-public-key': pki('ssh-rsa.pub'),
};

/** A different valid value for a field, or undefined when the descriptors alone cannot give one. */
export function mutated(name: string, f: Field, value: unknown): unknown {
  const current = value ?? f.default;
  const t: FieldType = f.type;
  switch (t.type) {
    case 'string':
      if (t.format !== undefined) return formatValues[t.format];
      if (name === 'owner_id') return 'usr_someoneelse';
      return `${typeof current === 'string' ? current : ''}changed`;
    case 'boolean':
      return !current;
    case 'integer':
      return typeof current === 'number' && current < t.max ? current + 1 : t.min;
    case 'number':
      return current === 0.25 ? 0.5 : 0.25;
    case 'enum':
      return t.values.find((v) => v !== current);
    case 'list':
      if (t.items.type === 'string' && t.items.format === 'hostport') return ['changed.example.net:443'];
      if (t.items.type === 'string' && t.items.format === 'ssh-acl-rule') return ['bind:changed.example.net'];
      if (t.items.type === 'string' && t.items.format === undefined)
        return [...(Array.isArray(current) ? (current as string[]) : []), 'changed'];
      return undefined;
    case 'map':
      return t.keyRef ? undefined : { ...(current as object), 'x-changed': 'yes' };
    case 'module':
      return current === null || current === undefined
        ? undefined
        : { ...current, enabled: (current as { enabled?: boolean }).enabled === false };
    default:
      return undefined;
  }
}
