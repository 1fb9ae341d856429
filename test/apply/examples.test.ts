/**
 * examples/account synced into an empty account: every object planned as a create, each applied,
 * and a plan made afterwards has nothing to do, every object unchanged.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { examplesDir, startHarness, type Harness } from './harness.js';

describe('sync of examples/', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    await h.close();
  });

  it('plans every object as a create from empty, applies them all, and a second plan is empty', async () => {
    const { computed, result } = await h.sync([join(examplesDir, 'account')]);
    const { plan, desired } = computed;
    expect(plan.operations.length).toBeGreaterThan(10);
    expect(plan.operations.filter((op) => op.action !== 'create').map((op) => op.id)).toEqual([]);
    expect(plan.summary.create).toBe(desired.objects.length);
    expect(result.operations.filter((r) => r.status !== 'done')).toEqual([]);
    expect(result.status).toBe('succeeded');
    const again = await h.plan([join(examplesDir, 'account')]);
    expect(again.plan.operations.map((op) => `${op.id} ${JSON.stringify(op.changes)}`)).toEqual([]);
    expect(again.plan.summary.unchanged).toBe(desired.objects.length);
  });
});
