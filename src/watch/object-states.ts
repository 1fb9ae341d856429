/**
 * The state of each object of the config as the last reconcile that planned found it: in sync,
 * drifted (and whether the daemon put it back), differing from a new config (observe mode),
 * failing, not converging, or observed.
 */
import type { NotConverging } from './convergence.js';
import type { DriftEvent } from './drift.js';
import type { PlanView } from './plan-view.js';
import type { ReconcileResult } from './types.js';

export type ObjectStateName =
  | 'in sync'
  | 'drifted'
  | 'drift reverted'
  | 'differs'
  | 'failing'
  | 'not converging'
  | 'observed'
  | 'observed, differs';

/** One field that differs: the live value and the desired one, as the plan shows them (sensitive values masked). */
interface FieldDiff {
  readonly field: string;
  readonly live?: unknown;
  readonly desired?: unknown;
}

export interface ObjectState {
  /** As the config names it (`backends`). */
  readonly kind: string;
  readonly key: string;
  readonly state: ObjectStateName;
  /** What to fix or what happened: the failure, the held write. */
  readonly note?: string;
  readonly diff: readonly FieldDiff[];
}

const idOf = (kind: string, key: string): string => `${kind}\u0000${key}`;

function driftState(event: DriftEvent): ObjectStateName {
  if (event.action === 'observe') return 'observed, differs';
  if (event.reverted) return 'drift reverted';
  // Observing, a difference the config made (or a create, which tells no cause) is not drift.
  return event.cause === 'drift' || event.cause === 'both' ? 'drifted' : 'differs';
}

const diffOf = (event: DriftEvent): FieldDiff[] =>
  event.changes.map((c) => ({
    field: c.field,
    ...(c.old === undefined ? {} : { live: c.old }),
    ...(c.new === undefined ? {} : { desired: c.new }),
  }));

/**
 * The objects of `plan` (the config's, then any other the reconcile touched: a delete), each with
 * the state `result` (the reconcile that made the plan) left it in. `notConverging`: the objects
 * held back as the daemon knows them now.
 */
export function objectStates(
  plan: PlanView,
  result: ReconcileResult,
  notConverging: readonly NotConverging[],
): ObjectState[] {
  const states = new Map<string, ObjectState>();
  for (const o of plan.objects)
    states.set(idOf(o.kind, o.key), {
      kind: o.kind,
      key: o.key,
      state: o.observed ? 'observed' : 'in sync',
      diff: [],
    });
  const set = (kind: string, key: string, change: Omit<ObjectState, 'kind' | 'key'>): void => {
    states.set(idOf(kind, key), { kind, key, ...change });
  };
  for (const event of result.drift ?? [])
    set(event.kind, event.key, { state: driftState(event), diff: diffOf(event) });
  for (const held of notConverging) {
    const diff = states.get(idOf(held.kind, held.key))?.diff ?? [];
    set(held.kind, held.key, {
      state: 'not converging',
      note: `the same ${held.action} of ${held.fields.join(', ') || 'it'} was sent ${held.sent} times since ${held.since}; held back until the config or the live value changes`,
      diff,
    });
  }
  // A refused or cut plan leaves what it would have changed as it was.
  const applied = new Set(result.applied.map((op) => idOf(op.kind, op.key)));
  if (result.status !== 'success')
    for (const change of plan.changes) {
      const id = idOf(change.kind, change.key);
      const now = states.get(id)?.state;
      if (applied.has(id) || (now !== undefined && now !== 'in sync')) continue;
      set(change.kind, change.key, {
        state: 'differs',
        note: `${change.action} planned, not applied (${result.status})`,
        diff: [],
      });
    }
  for (const failed of result.failedObjects ?? []) {
    const diff = states.get(idOf(failed.kind, failed.key))?.diff ?? [];
    set(failed.kind, failed.key, { state: 'failing', note: failed.reason, diff });
  }
  return [...states.values()];
}
