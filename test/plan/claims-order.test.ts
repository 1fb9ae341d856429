/**
 * The planner's last resort for claims: when a cycle of claims has no intermediate step (no replace
 * to delete first, no list to release part of), planning fails before any call, naming the
 * operations, instead of an apply that fails halfway.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { ClaimSides } from '../../src/plan/claims.js';
import { runSchedule } from '../../src/apply/schedule.js';
import { orderOperations } from '../../src/plan/order.js';
import type { Operation } from '../../src/plan-format/types.js';

/** An update of `key` (a kind whose claim field is not a list, so no first PATCH can release it). */
const update = (key: string): Operation => ({
  id: `update ${key}`,
  action: 'update',
  kind: 'reserved_domains',
  key,
  liveId: `rd_${key}`,
  changes: [],
  dependsOn: [],
  requests: [],
  reason_code: 'update_because_changed',
});

describe('orderOperations with a cycle of claims', () => {
  it('orders a release before the claim of the same value', () => {
    const claims = new Map<string, ClaimSides>([
      ['update reserved_domains/a', { claims: ['domain||x'], releases: [] }],
      ['update reserved_domains/b', { claims: [], releases: ['domain||x'] }],
    ]);
    const ordered = orderOperations([update('reserved_domains/a'), update('reserved_domains/b')], {
      desired: new Map(),
      live: [],
      deleteFirst: new Set(),
      claims,
    });
    expect(ordered.operations.map((op) => [op.id, op.dependsOn])).toEqual([
      ['update reserved_domains/b', []],
      ['update reserved_domains/a', ['update reserved_domains/b']],
    ]);
  });

  it('refuses a swap it cannot break, naming both operations', () => {
    const claims = new Map<string, ClaimSides>([
      ['update reserved_domains/a', { claims: ['domain||x'], releases: ['domain||y'] }],
      ['update reserved_domains/b', { claims: ['domain||y'], releases: ['domain||x'] }],
    ]);
    const plan = () =>
      orderOperations([update('reserved_domains/a'), update('reserved_domains/b')], {
        desired: new Map(),
        live: [],
        deleteFirst: new Set(),
        claims,
      });
    expect(plan).toThrow(UserError);
    expect(plan).toThrow('no safe order: these operations each wait for another (nothing was changed)');
    try {
      plan();
    } catch (error) {
      expect((error as UserError).details).toEqual([
        'update reserved_domains/a',
        'update reserved_domains/b',
      ]);
    }
  });

  it("orders and runs a 50,000-long chain of claims (each domain takes the next one's name)", async () => {
    const n = 50_000;
    const key = (i: number): string => `reserved_domains/d${i}`;
    const claims = new Map<string, ClaimSides>(
      Array.from({ length: n }, (_, i) => [
        `update ${key(i)}`,
        { claims: i + 1 < n ? [`domain||d${i + 1}`] : [], releases: [`domain||d${i}`] },
      ]),
    );
    const ops = Array.from({ length: n }, (_, i) => update(key(i)));
    const ordered = orderOperations(ops, { desired: new Map(), live: [], deleteFirst: new Set(), claims });
    expect(ordered.operations[0]?.id).toBe(`update ${key(n - 1)}`);
    expect(ordered.operations[n - 1]?.dependsOn).toEqual([`update ${key(1)}`]);
    const ran: string[] = [];
    const outcomes = await runSchedule(
      ordered.operations,
      { parallelism: 8, continueOnError: false },
      (op) => {
        ran.push(op.id);
        return Promise.resolve();
      },
    );
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
    expect(ran).toEqual(ordered.operations.map((op) => op.id));
  });
});
