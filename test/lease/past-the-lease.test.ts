/**
 * Two writers past the lease (a holder paused beyond its TTL and still writing): the same plan
 * applied twice at once. A create refused because the other writer's object holds its unique value
 * keeps that object (found by its marker) instead of failing on the conflict; the duplicates of
 * keys without a unique value are planned as duplicates, and cleaning them up is no mass delete.
 */
import { describe, expect, it } from 'vitest';
import { applyPlan, defaultGuardOptions, guardRefusal } from '../../src/apply/index.js';
import { planFor } from '../../src/pipeline/index.js';
import { examplesState } from '../apply/harness.js';
import { useAccount } from '../support/use-account.js';

describe('two writers applying the same creates at once', () => {
  const account = useAccount();

  it('adopt the racing creates, then converge with a plan that only removes duplicates', async () => {
    const desired = await examplesState();
    const [a, b] = await Promise.all([planFor(desired, account.client), planFor(desired, account.client)]);
    const results = await Promise.all([a, b].map((p) => applyPlan(p.plan, p.desired, account.client)));
    for (const result of results) {
      const failures = result.operations.filter((op) => op.status !== 'done');
      expect(failures.map((op) => `${op.id}: ${op.failure?.msg ?? op.status}`)).toEqual([]);
    }
    const recovered = results.flatMap((r) => r.operations.filter((op) => op.recovery !== undefined));
    expect(recovered.length).toBeGreaterThan(0);
    for (const op of recovered) expect(op.recovery).toMatch(/another writer created it at the same moment/);

    const { plan, desired: again } = await planFor(desired, account.client);
    const deletes = plan.operations.filter((op) => op.action === 'delete');
    expect(deletes.length).toBeGreaterThan(0);
    expect(plan.operations.filter((op) => op.action !== 'delete' && op.action !== 'update')).toEqual([]);
    for (const op of deletes) expect(op.reason_code).toBe('delete_because_duplicate');
    expect(guardRefusal(plan, again, defaultGuardOptions)).toBeUndefined();
    const cleanup = await applyPlan(plan, again, account.client);
    expect(cleanup.status).toBe('succeeded');
    expect((await planFor(desired, account.client)).plan.operations).toEqual([]);
  });
});
