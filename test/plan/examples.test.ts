import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDesiredState } from '../../src/config/index.js';
import { planFor } from '../../src/plan/index.js';
import type { DesiredState } from '../../src/resources/index.js';
import { applyPlan, startHarness, type Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function examples(): Promise<DesiredState> {
  const loaded = await loadDesiredState(['examples/account'], { env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics, null, 2));
  return loaded.state;
}

describe('examples/', () => {
  it('plans every object as a create from empty, and nothing once applied', async () => {
    const desired = await examples();
    const { plan } = await planFor(desired, h.client);
    expect(plan.operations.every((op) => op.action === 'create')).toBe(true);
    expect(plan.summary.create).toBe(desired.objects.length);
    await applyPlan(h.client, plan, desired);
    const again = await planFor(desired, h.client);
    expect(again.plan.operations).toEqual([]);
    expect(again.plan.summary.unchanged).toBe(desired.objects.length);
  });
});
