/**
 * Writes that do not converge: the daemon plans the same write for the same object on
 * consecutive reconciles (the service did not keep it, or something changes it straight back).
 * The same write is sent twice; from the third plan holding it, it is held back and the object is
 * reported `not converging` (`/status`, `/readyz`, a metric, a notification) until the config or
 * the live value changes, which changes the write.
 */
import type { ApplyResult } from '../apply/index.js';
import { canonicalJson, type KindRegistry } from '../resources/index.js';
import type { Operation, Plan } from '../plan-format/index.js';
import { configKindOf } from './drift.js';

/** An object whose write the daemon stopped sending. */
export interface NotConverging {
  readonly key: string;
  /** The kind as the config names it (`backends`, `ip_policies`). */
  readonly kind: string;
  readonly action: string;
  /** The members the write sets (top level). */
  readonly fields: readonly string[];
  /** How many times the same write was sent. */
  readonly sent: number;
  /** When the same write was first sent. */
  readonly since: string;
}

/** Times the same write is sent before the daemon holds it back. */
const sendsBeforeHold = 2;

interface Streak {
  /** The write: its changes (live and desired values), masked as the plan masks them. */
  readonly fingerprint: string;
  readonly sent: number;
  readonly since: string;
}

/**
 * The write as the reviewer sees it: its changes (live and desired values). Not its requests: the
 * first also records in the marker what it wrote (its `written` fingerprint), the repeats do not.
 */
const fingerprintOf = (op: Operation): string => canonicalJson({ action: op.action, changes: op.changes });

function notConverging(op: Operation, streak: Streak, kinds: KindRegistry): NotConverging {
  return {
    key: op.key,
    kind: configKindOf(kinds, op.kind),
    action: op.action,
    fields: [...new Set(op.changes.map((c) => String(c.path[0])))],
    sent: streak.sent,
    since: streak.since,
  };
}

/** One line per object, for `/readyz` details and notifications. */
export function notConvergingLine(o: NotConverging): string {
  const fields = o.fields.length === 0 ? '' : ` (${o.fields.join(', ')})`;
  return `not converging: ${o.key}${fields}: the same ${o.action} was sent ${o.sent} times since ${o.since} and planned again; held until the config or the live value changes`;
}

/** Per operation id, the write sent on the last reconciles and how often in a row. */
export class ConvergenceWatch {
  #streaks = new Map<string, Streak>();
  /** The kinds the plans' objects are of. */
  readonly #kinds: KindRegistry;

  constructor(kinds: KindRegistry) {
    this.#kinds = kinds;
  }

  /**
   * The plan without the writes already sent {@link sendsBeforeHold} times in a row unchanged, and
   * the objects held back. A write no longer planned, or planned differently, starts afresh.
   */
  hold(plan: Plan): { readonly plan: Plan; readonly held: readonly NotConverging[] } {
    const held: NotConverging[] = [];
    const heldIds = new Set<string>();
    const streaks = new Map<string, Streak>();
    for (const op of plan.operations) {
      const streak = this.#streaks.get(op.id);
      if (streak === undefined || streak.fingerprint !== fingerprintOf(op)) continue;
      streaks.set(op.id, streak);
      if (streak.sent < sendsBeforeHold) continue;
      heldIds.add(op.id);
      held.push(notConverging(op, streak, this.#kinds));
    }
    this.#streaks = streaks;
    if (heldIds.size === 0) return { plan, held };
    const operations = plan.operations
      .filter((op) => !heldIds.has(op.id))
      .map((op) =>
        op.dependsOn.some((id) => heldIds.has(id))
          ? { ...op, dependsOn: op.dependsOn.filter((id) => !heldIds.has(id)) }
          : op,
      );
    return { plan: { ...plan, operations }, held };
  }

  /**
   * Counts the writes `result` sent: done, or refused only because the service did not keep a
   * value. A write that failed otherwise (a transient error, a refusal) starts afresh.
   */
  record(plan: Plan, result: ApplyResult, now: Date = new Date()): void {
    const ops = new Map(plan.operations.map((op) => [op.id, op]));
    for (const outcome of result.operations) {
      const op = ops.get(outcome.id);
      if (op === undefined) continue;
      const sent =
        outcome.status === 'done' ||
        (outcome.status === 'failed' && outcome.failure?.errorCode === 'ERR_ACCTSYNC_NOT_KEPT');
      if (!sent) {
        this.#streaks.delete(op.id);
        continue;
      }
      const fingerprint = fingerprintOf(op);
      const streak = this.#streaks.get(op.id);
      this.#streaks.set(
        op.id,
        streak?.fingerprint === fingerprint
          ? { ...streak, sent: streak.sent + 1 }
          : { fingerprint, sent: 1, since: now.toISOString() },
      );
    }
  }
}
