/**
 * The planner's last resort for claims: when a cycle of claims has no intermediate step (no replace
 * to delete first, no list to release part of), planning fails before any call, naming the
 * operations, instead of an apply that fails halfway.
 */
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import type { ClaimSides } from '../../src/plan/claims.js';
import { orderOperations } from '../../src/plan/order.js';
import type { Operation } from '../../src/plan/types.js';

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
});
