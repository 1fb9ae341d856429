/**
 * Planner, applier and emulator held to each other, generated from the descriptors: every managed
 * kind is created, each writable field changed (in place, or by a replace for an immutable one)
 * and the object deleted; every module, in every slot a kind gives it, is set, replaced and
 * removed. Each step is planned exactly (the one create, update, replace or delete it needs), runs
 * the real planner and applier over HTTP, must leave nothing to do, and is read back with a raw
 * GET of the record. The emulator's own suites hold both to the spec's literal
 * paths (`test/emulator/`, `test/fixtures/api-reference.ts`).
 */
/* eslint-disable @typescript-eslint/no-unsafe-member-access -- records are arbitrary JSON read member by member */
import { beforeAll, describe, expect, it } from 'vitest';
import { applyPlan } from '../../src/apply/index.js';
import { objectPath } from '../../src/resources/index.js';
import { parseMetadata } from '../../src/plan/index.js';
import type { Plan } from '../../src/plan-format/index.js';
import { planFor } from '../../src/pipeline/index.js';
import {
  descriptorOf,
  managedDescriptors,
  moduleFields,
  type DesiredObject,
  type DesiredState,
  type Field,
  type FieldType,
  type KindDescriptor,
} from '../../src/resources/index.js';
import { callEmulator, type Answer } from '../emulator/harness.js';
import { loadExamples } from '../plan/helpers.js';
import { closure, mutated, withFields, without } from '../support/desired-values.js';
import { useAccount } from '../support/use-account.js';

let examples: DesiredState;
const h = useAccount();
beforeAll(async () => {
  examples = await loadExamples();
});

interface Synced {
  /** The plan applied. */
  readonly plan: Plan;
  /** The plan made once it was applied: nothing to do. */
  readonly after: Plan;
  /** The live id of each object, by key. */
  readonly ids: Readonly<Record<string, string>>;
}

const opIds = (plan: Plan) => plan.operations.map((op) => op.id).sort();

/** Plans `desired` and applies it with the real applier; then nothing may be left to do. */
async function sync(desired: DesiredState): Promise<Synced> {
  const { plan } = await planFor(desired, h.client);
  // Deleting the last object (or most of a small config) is the point here, not a mistake.
  const result = await applyPlan(plan, desired, h.client);
  expect(
    result.operations.filter((r) => r.status !== 'done'),
    JSON.stringify(plan.operations.map((op) => op.id)),
  ).toEqual([]);
  const again = await planFor(desired, h.client);
  expect(again.plan.operations.map((op) => op.id)).toEqual([]);
  return { plan, after: again.plan, ids: again.plan.resolvedIds };
}

/** The record of `o` as the emulator holds it, read with a plain HTTP GET. */
function rawGet(o: DesiredObject, ids: Readonly<Record<string, string>>, suffix = ''): Promise<Answer> {
  const d = descriptorOf(o.kind);
  const parentId = o.parentKey === undefined ? undefined : ids[o.parentKey];
  return callEmulator(h, 'GET', `${objectPath(d, ids[o.key] ?? 'missing', parentId)}${suffix}`);
}

/** A value type the record returns as written: no references, formats the service may reformat, or nesting. */
function readsBackAsWritten(t: FieldType): boolean {
  switch (t.type) {
    case 'string':
      return t.format === undefined || ['hostname', 'domain', 'url', 'cidr', 'hostport'].includes(t.format);
    case 'boolean':
    case 'integer':
    case 'number':
    case 'enum':
      return true;
    case 'list':
      return readsBackAsWritten(t.items);
    case 'map':
      return t.keyRef === undefined && readsBackAsWritten(t.values);
    default:
      return false;
  }
}

const comparable = (f: Field): boolean =>
  f.writeOnly !== true && f.secret !== true && readsBackAsWritten(f.type);

/** What the record holds for a written value: header names come back lower-case. */
function asStored(f: Field, value: unknown): unknown {
  if (f.type.type !== 'map' || f.type.lowerCaseKeys !== true) return value;
  return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k.toLowerCase(), v]));
}

const pemFormats = new Set(['pem-certificate', 'pem-certificate-chain', 'pem-private-key']);
const isPem = (f: Field | undefined) => f?.type.type === 'string' && pemFormats.has(f.type.format ?? '');

/**
 * `fields` with `name` changed to `value`, and what must change with it for the service to accept
 * it: a private key belongs to its certificate, so both take the new pair together.
 */
function changed(
  fields: Readonly<Record<string, unknown>>,
  d: KindDescriptor,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...fields, [name]: value };
  if (!isPem(d.fields[name])) return next;
  for (const [other, f] of Object.entries(d.fields)) {
    if (other !== name && isPem(f) && f.write !== 'read-only') next[other] = mutated(other, f, fields[other]);
  }
  return next;
}

async function newBot(): Promise<string> {
  const bot = await callEmulator(h, 'POST', '/_emulator/bots', {});
  expect(bot.status).toBe(201);
  return bot.body.id as string;
}

const exampleOf = (kind: string): DesiredObject | undefined => examples.objects.find((o) => o.kind === kind);

describe.each(managedDescriptors().map((d) => [d.kind, d] as const))('%s', (kind, d) => {
  it('is created, each writable field changed, and deleted, by the applier', async () => {
    const o = exampleOf(kind);
    expect(o, `examples/ has no ${d.title}`).toBeDefined();
    const full = closure(examples, o!);
    const rest = without(full, o!.key);
    await sync(rest);
    const created = await sync(full);
    expect(opIds(created.plan)).toEqual([`create ${o!.key}`]);
    expect(created.after.summary.unchanged).toBe(full.objects.length);
    let { ids } = created;
    expect(ids[o!.key]).toBeDefined();
    expect((await rawGet(o!, ids)).status).toBe(200);

    let tried = 0;
    for (const [name, f] of Object.entries(d.fields)) {
      if (f.write === 'read-only' || name === d.parent?.field) continue;
      // Another owner must exist: the account starts with its admin alone.
      const value = name === 'owner_id' ? await newBot() : mutated(name, f, o!.fields[name]);
      if (value === undefined) continue;
      const context = `${kind}.${name} -> ${JSON.stringify(value).slice(0, 60)}`;
      const before = ids[o!.key];
      const object = { ...o!, fields: changed(o!.fields, d, name, value) };
      const step = await sync(withFields(full, o!.key, object.fields));
      ids = step.ids;
      // Written and ignored by the service, which answers its default: never a change.
      if (f.serviceIgnores === true) {
        expect(opIds(step.plan), context).toEqual([]);
        continue;
      }
      tried++;
      if (f.write === 'immutable') {
        expect(opIds(step.plan), context).toEqual([`create ${o!.key}`, `delete ${o!.key}#${before}`]);
        const create = step.plan.operations.find((op) => op.action === 'create');
        expect(create?.replaces, context).toBe(o!.key);
        expect(
          create?.changes.some((c) => c.path[0] === name && c.forcesReplace),
          context,
        ).toBe(true);
      } else {
        expect(opIds(step.plan), context).toEqual([`update ${o!.key}`]);
        const [update] = step.plan.operations;
        // Only the fields changed: `name`, and the private key that goes with a certificate.
        const changedNames = Object.keys(object.fields).filter((k) => object.fields[k] !== o!.fields[k]);
        expect(update?.changes.length, context).toBeGreaterThan(0);
        expect(
          update?.changes.every((c) => changedNames.includes(String(c.path[0]))),
          context,
        ).toBe(true);
        expect(step.plan.summary.update, context).toBe(1);
      }
      const record = await rawGet(object, ids);
      expect(record.status, `${kind}.${name}`).toBe(200);
      // The metadata the user wrote is carried beside the ownership marker.
      const stored: unknown =
        name === 'metadata' ? parseMetadata(record.body.metadata as string).user : record.body[name];
      if (comparable(f)) expect(stored, `${kind}.${name}`).toEqual(asStored(f, value));
      if (f.write === 'immutable') {
        expect(ids[o!.key], `${kind}.${name} replaces`).not.toBe(before);
        expect((await rawGet(o!, { ...ids, [o!.key]: before! })).status, `${kind}.${name}`).toBe(404);
      } else expect(ids[o!.key], `${kind}.${name} in place`).toBe(before);
      ({ ids } = await sync(full));
    }
    expect(tried).toBeGreaterThanOrEqual(2);

    const deleted = await sync(rest);
    expect(opIds(deleted.plan)).toEqual([`delete ${o!.key}#${ids[o!.key]}`]);
    expect(deleted.plan.operations[0]?.reason).toBe('left the config');
    expect((await rawGet(o!, ids)).status).toBe(404);
  });
});

/** Every module slot of every kind: (kind, member, module). */
const slots = managedDescriptors().flatMap((d) =>
  moduleFields(d).map(([member, module]) => [`${d.kind}.${member}`, d.kind, member, module.name] as const),
);

describe.each(slots)('%s module', (_slot, kind, member, segment) => {
  it('is set, replaced and removed by the applier', async () => {
    const o = examples.objects.find((x) => x.kind === kind && x.fields[member] != null);
    expect(o, `examples/ sets no ${member} on a ${kind} object`).toBeDefined();
    const full = closure(examples, o!);
    const value = o!.fields[member] as Record<string, unknown>;
    const withModule = (module: unknown) => withFields(full, o!.key, { ...o!.fields, [member]: module });
    const enabled = (v: Record<string, unknown>) => v.enabled !== false;

    let { ids } = await sync(withModule(null));
    expect((await rawGet(o!, ids)).body[member]).toBeNull();

    ({ ids } = await sync(withModule(value)));
    expect((await rawGet(o!, ids)).body[member].enabled).toBe(enabled(value));
    const own = await rawGet(o!, ids, `/${segment}`);
    expect(own.status).toBe(200);
    expect(own.body.enabled).toBe(enabled(value));

    const replaced = { ...value, enabled: !enabled(value) };
    ({ ids } = await sync(withModule(replaced)));
    expect((await rawGet(o!, ids)).body[member].enabled).toBe(!enabled(value));

    ({ ids } = await sync(withModule(null)));
    expect((await rawGet(o!, ids)).body[member]).toBeNull();
    expect((await rawGet(o!, ids, `/${segment}`)).status).toBe(404);
  });
});
