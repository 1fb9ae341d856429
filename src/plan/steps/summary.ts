/** The plan's counts: what it creates, updates, replaces, deletes and adopts, and what it removes. */
import { managedCount } from '../cascade.js';
import type { LiveObject } from '../../live/index.js';
import { removedBy, type Operation, type PlanSummary } from '../../plan-format/index.js';

interface SummaryInputs {
  readonly replaced: number;
  readonly unchanged: number;
  readonly liveObjects: readonly LiveObject[];
  readonly scope: string;
}

export function summarize(operations: readonly Operation[], inputs: SummaryInputs): PlanSummary {
  // A replace's two halves and an interim release are counted once, as the replace or the update.
  const count = (action: Operation['action']) =>
    operations.filter((op) => op.action === action && op.replaces === undefined && op.interim !== true)
      .length;
  return {
    create: count('create'),
    update: count('update'),
    replace: inputs.replaced,
    delete: count('delete'),
    adopt: count('adopt'),
    rename: count('rename'),
    unchanged: inputs.unchanged,
    managed: managedCount(inputs.liveObjects, inputs.scope),
    removed: operations.reduce((n, op) => n + removedBy(op), 0),
  };
}
