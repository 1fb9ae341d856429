/**
 * Drift as an operator reads it: one event per live object that differs from the desired state,
 * with the field-level changes the planner found (sensitive values already masked by it) and
 * whether the daemon put the object back.
 */
import type { ApplyResult } from '../apply/index.js';
import type { ChangeCause, ObservedObject, Operation } from '../plan-format/index.js';
import type { KindName, KindRegistry } from '../resources/index.js';

/** One field of a drifted object: `old` is the live value, `new` the desired one (absent when unset). */
interface DriftChange {
  readonly field: string;
  readonly old?: unknown;
  readonly new?: unknown;
}

export interface DriftEvent {
  /** The kind as the config names it (`backends`, `ip_policies`). */
  readonly kind: string;
  readonly key: string;
  /**
   * What putting it back takes: `update`, `create` (deleted by hand), `replace`, `delete`; or
   * `observe` for an observed entry, which is never put back.
   */
  readonly action: 'create' | 'update' | 'replace' | 'delete' | 'adopt' | 'rename' | 'observe';
  readonly changes: readonly DriftChange[];
  /** Every operation on the object succeeded: the object equals the desired state again. */
  readonly reverted: boolean;
  /**
   * `drift` (changed outside acctsync), `both` (and in the config), or in observe mode `config`
   * (only the config changed); absent where nothing tells (an object created in observe mode).
   */
  readonly cause?: ChangeCause;
}

/** The config's name for a kind (descriptor `config.key`), the API's for kinds the config does not hold. */
export function configKindOf(kinds: KindRegistry, kind: KindName): string {
  return kinds.descriptorOf(kind).config?.key ?? kind;
}

const fieldName = (path: readonly (string | number)[]): string => path.map(String).join('.');

/**
 * The cause of an object's drift: its operations' (the plan's `cause`); with the config as it was
 * when the account last equalled it, whatever differs was changed outside acctsync, even where the
 * marker holds no fingerprint yet or the object is gone (a create).
 */
function causeOf(ops: readonly Operation[], configUnchanged: boolean): ChangeCause | undefined {
  const cause = ops.find((op) => op.cause !== undefined)?.cause;
  if (cause === 'drift' || cause === 'both') return cause;
  return configUnchanged ? 'drift' : cause;
}

/**
 * The drift events of a plan's operations (on objects of `kinds`), one per object (both steps of a
 * replace make one). `applied` is the applier's result when the plan was applied, absent when it
 * was only observed; `configUnchanged`, whether the config is the one the account last equalled.
 */
export function driftEventsOf(
  kinds: KindRegistry,
  operations: readonly Operation[],
  configUnchanged: boolean,
  applied?: ApplyResult,
): DriftEvent[] {
  const done = new Set(applied?.operations.filter((op) => op.status === 'done').map((op) => op.id));
  const byObject = new Map<string, Operation[]>();
  for (const op of operations) {
    const id = `${op.kind}\u0000${op.replaces ?? op.key}`;
    byObject.set(id, [...(byObject.get(id) ?? []), op]);
  }
  return [...byObject.values()].map((ops) => {
    const first = ops[0] as Operation;
    const replaced = ops.some((op) => op.replaces !== undefined);
    const cause = causeOf(ops, configUnchanged);
    return {
      kind: configKindOf(kinds, first.kind),
      key: first.replaces ?? first.key,
      action: replaced ? 'replace' : first.action,
      changes: ops.flatMap((op) =>
        op.changes.map((c) => ({
          field: fieldName(c.path),
          ...(c.before === undefined ? {} : { old: c.before }),
          ...(c.after === undefined ? {} : { new: c.after }),
        })),
      ),
      reverted: ops.every((op) => done.has(op.id)),
      ...(cause === undefined ? {} : { cause }),
    };
  });
}

/** The drift of the observed entries that differ from the config: reported, never reverted. */
export function observedDriftEvents(kinds: KindRegistry, observed: readonly ObservedObject[]): DriftEvent[] {
  return observed
    .filter((o) => o.changes.length > 0)
    .map((o) => ({
      kind: configKindOf(kinds, o.kind),
      key: o.key,
      action: 'observe',
      changes: o.changes.map((c) => ({
        field: fieldName(c.path),
        ...(c.before === undefined ? {} : { old: c.before }),
        ...(c.after === undefined ? {} : { new: c.after }),
      })),
      reverted: false,
    }));
}
