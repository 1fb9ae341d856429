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

  it('creates everything from empty, and a second plan is empty', async () => {
    const { computed, result } = await h.sync([join(examplesDir, 'account')]);
    expect(computed.plan.operations.length).toBeGreaterThan(10);
    expect(result.operations.filter((r) => r.status !== 'done')).toEqual([]);
    expect(result.status).toBe('succeeded');
    const again = await h.plan([join(examplesDir, 'account')]);
    expect(again.plan.operations.map((op) => `${op.id} ${JSON.stringify(op.changes)}`)).toEqual([]);
  });
});
