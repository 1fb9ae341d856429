/**
 * What the status page shows of a reconcile's plan: the objects the config keeps (and observes),
 * and the change as the applier runs it: each operation with the ones it waits for.
 */
import type { Plan } from '../plan-format/index.js';
import type { DesiredState, KindRegistry } from '../resources/index.js';
import { configKindOf } from './drift.js';

/** An object of the config. */
interface ViewedObject {
  /** As the config names it (`backends`). */
  readonly kind: string;
  readonly key: string;
  /** An `observe: true` entry: read and compared, never written. */
  readonly observed: boolean;
}

/** One operation of the plan, in the applier's order. */
interface PlannedChange {
  readonly id: string;
  readonly action: string;
  readonly kind: string;
  readonly key: string;
  /** Operation ids that must succeed before this one starts. */
  readonly after: readonly string[];
}

export interface PlanView {
  readonly scope: string;
  readonly objects: readonly ViewedObject[];
  readonly changes: readonly PlannedChange[];
}

export function planViewOf(plan: Plan, desired: DesiredState, kinds: KindRegistry): PlanView {
  return {
    scope: plan.scope,
    objects: desired.objects.map((o) => ({
      kind: configKindOf(kinds, o.kind),
      key: o.key,
      observed: o.observe === true,
    })),
    changes: plan.operations.map((op) => ({
      id: op.id,
      action: op.action,
      kind: configKindOf(kinds, op.kind),
      key: op.key,
      after: op.dependsOn,
    })),
  };
}
