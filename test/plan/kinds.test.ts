/**
 * Every managed kind against the emulator over real HTTP: create, no-op, an in-place update of each
 * updatable field, a replace for each immutable field, and delete, each planned exactly. The
 * objects come from examples/ with the objects they reference; mutations are derived from the
 * field descriptors, with fixtures for the formats that need real values.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { planFor } from '../../src/pipeline/index.js';
import { managedDescriptors, type DesiredState } from '../../src/resources/index.js';
import { closure, mutated, withFields, without } from '../support/desired-values.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

let examples: DesiredState;
const h = useAccount(planAccount);
beforeAll(async () => {
  examples = await loadExamples();
});

const ids = (plan: { operations: readonly { id: string }[] }) => plan.operations.map((op) => op.id).sort();

describe.each(managedDescriptors().map((d) => [d.kind, d] as const))('%s', (kind, d) => {
  const first = () => examples.objects.find((o) => o.kind === kind);

  it('is in examples/', () => {
    expect(first()).toBeDefined();
  });

  it('plans create, no-op, each field change and delete exactly', async () => {
    const o = first()!;
    const full = closure(examples, o);
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
      // The service ignores what is written there and answers its default: never a change.
      if (f.serviceIgnores === true) {
        expect(ids(plan), context).toEqual([]);
        continue;
      }
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
