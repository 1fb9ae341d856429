import { describe, expect, it } from 'vitest';
import { planFor } from '../../src/pipeline/index.js';
import { useAccount } from '../support/use-account.js';
import { applyPlan, loadExamples, planAccount } from './helpers.js';

const h = useAccount(planAccount);

describe('examples/', () => {
  it('plans every object as a create from empty, and nothing once applied', async () => {
    const desired = await loadExamples();
    const { plan } = await planFor(desired, h.client);
    expect(plan.operations.every((op) => op.action === 'create')).toBe(true);
    expect(plan.summary.create).toBe(desired.objects.length);
    await applyPlan(h.client, plan, desired);
    const again = await planFor(desired, h.client);
    expect(again.plan.operations).toEqual([]);
    expect(again.plan.summary.unchanged).toBe(desired.objects.length);
  });
});
