/**
 * Every managed kind against the emulator over real HTTP: create, no-op, an in-place update of each
 * updatable field, a replace for each immutable field, and delete, each planned exactly. The
 * objects come from examples/ with the objects they reference; mutations are derived from the
 * field descriptors, with fixtures for the formats that need real values.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { planFor } from '../../src/pipeline/index.js';
import {
  descriptorOf,
  findReferences,
  isObjectKey,
  managedDescriptors,
  type DesiredObject,
  type DesiredState,
  type Field,
  type FieldType,
} from '../../src/resources/index.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

const pki = (name: string) => readFileSync(`test/fixtures/pki/${name}`, 'utf8');

let examples: DesiredState;
const h = useAccount(planAccount);
beforeAll(async () => {
  examples = await loadExamples();
});

/** `o` and everything it needs: referenced objects and parents, transitively. */
function closure(o: DesiredObject): DesiredState {
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

function without(state: DesiredState, key: string): DesiredState {
  return { ...state, objects: state.objects.filter((x) => x.key !== key && x.parentKey !== key) };
}

function withFields(state: DesiredState, key: string, fields: Record<string, unknown>): DesiredState {
  return { ...state, objects: state.objects.map((x) => (x.key === key ? { ...x, fields } : x)) };
}

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
function mutated(name: string, f: Field, value: unknown): unknown {
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

const ids = (plan: { operations: readonly { id: string }[] }) => plan.operations.map((op) => op.id).sort();

describe.each(managedDescriptors.map((d) => [d.kind, d] as const))('%s', (kind, d) => {
  const first = () => examples.objects.find((o) => o.kind === kind);

  it('is in examples/', () => {
    expect(first()).toBeDefined();
  });

  it('plans create, no-op, each field change and delete exactly', async () => {
    const o = first()!;
    const full = closure(o);
    const rest = without(full, o.key);
    await applyPlan(h.client, (await planFor(rest, h.client)).plan, rest);

    const created = await planFor(full, h.client);
    expect(ids(created.plan)).toEqual([`create ${o.key}`]);
    await applyPlan(h.client, created.plan, full);

    const noop = await planFor(full, h.client);
    expect(noop.plan.operations).toEqual([]);
    expect(noop.plan.summary.unchanged).toBe(full.objects.length);
    const liveId = noop.plan.resolvedIds[o.key];
    expect(liveId).toBeDefined();

    let tried = 0;
    for (const [name, f] of Object.entries(d.fields)) {
      if (f.write === 'read-only' || f.write === 'update-only' || name === d.parent?.field) continue;
      const value = mutated(name, f, o.fields[name]);
      if (value === undefined) continue;
      tried++;
      const { plan } = await planFor(withFields(full, o.key, { ...o.fields, [name]: value }), h.client);
      const context = `${kind}.${name} -> ${JSON.stringify(value).slice(0, 60)}`;
      if (f.write === 'immutable') {
        expect(ids(plan), context).toEqual([`create ${o.key}`, `delete ${o.key}#${liveId}`]);
        const create = plan.operations.find((op) => op.action === 'create');
        expect(create?.replaces, context).toBe(o.key);
        expect(
          create?.changes.some((c) => c.path[0] === name && c.forcesReplace),
          context,
        ).toBe(true);
      } else {
        expect(ids(plan), context).toEqual([`update ${o.key}`]);
        const [update] = plan.operations;
        expect(update?.changes.length, context).toBeGreaterThan(0);
        expect(
          update?.changes.every((c) => c.path[0] === name),
          context,
        ).toBe(true);
        expect(plan.summary.update, context).toBe(1);
      }
    }

    expect(tried).toBeGreaterThanOrEqual(2);

    const deleted = await planFor(rest, h.client);
    expect(ids(deleted.plan)).toEqual([`delete ${o.key}#${liveId}`]);
    expect(deleted.plan.operations[0]?.reason).toBe('left the config');
  });
});
