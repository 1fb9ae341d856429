/**
 * Safety checks run before the first API write: a plan that would delete much of what this config
 * manages is far more often a mistake (a wrong path, a half-merged branch, an empty file) than an
 * intent, so it needs `--force`.
 */
import { UserError } from '../errors.js';
import { defaultGuardOptions } from './defaults.js';
import { lookalikeRefusal } from './lookalike-guard.js';
import { describeCascade, removedBy } from '../plan-format/index.js';
import type { Plan, SyncGuard } from '../plan-format/index.js';
import type { DesiredState } from '../resources/index.js';

/**
 * A guard's refusal: its parts stay data, so `plan` can show the reason and the way forward in a
 * pull request's comment without parsing the message a sync prints.
 */
export class GuardRefusal extends UserError {
  constructor(
    readonly guard: SyncGuard,
    /** Why, without the `refusing to sync: ` a sync prints before it. */
    readonly reason: string,
    /** What would go, a line each. */
    readonly listing: readonly string[],
    readonly howToProceed: string,
  ) {
    super(`refusing to sync: ${reason}`, { details: [...listing, howToProceed] });
  }
}

export interface GuardOptions {
  /** Skip every guard but the look-alike refusal (`lookalikeRefusal`), which --adopt or `id: new` resolves. */
  readonly force: boolean;
  /**
   * Refuse when the objects removed (deletes, replaces, and the children deleted with them) exceed
   * this share of the managed objects. Default 30.
   */
  readonly maxDeletePercent: number;
  /** The percentage guard applies only from this many managed objects up. Default 10. */
  readonly maxDeleteMinManaged: number;
  /** A config with no objects may delete every object it manages (`guards.allow_empty`). */
  readonly allowEmpty?: boolean;
}

/**
 * The limits in force: the defaults, then the config's reviewed `guards:`, then the flags given
 * on the command line (`flags` holds only those).
 */
export function guardOptionsFor(desired: DesiredState, flags: Partial<GuardOptions>): GuardOptions {
  return { ...defaultGuardOptions, ...desired.guards, ...flags };
}

/** Lists at most this many objects in the refusal; the rest are counted. */
const listedMax = 20;

function describeDeletes(plan: Plan): string[] {
  const deletes = plan.operations.filter((op) => op.action === 'delete');
  const lines = deletes
    .slice(0, listedMax)
    .map(
      (op) =>
        `  - ${op.key} (${op.liveId ?? 'unknown id'})${op.replaces === undefined ? '' : ', replaced'}${describeCascade(op.cascade)}`,
    );
  if (deletes.length > listedMax) lines.push(`  ... and ${deletes.length - listedMax} more`);
  return lines;
}

/** What the guards would refuse in `plan` (and how to proceed), for `plan` to show before a sync. */
export function guardRefusal(
  plan: Plan,
  desired: DesiredState,
  options: GuardOptions,
): GuardRefusal | undefined {
  const lookalike = lookalikeRefusal(plan);
  if (lookalike !== undefined)
    return new GuardRefusal('lookalike', lookalike.reason, lookalike.listing, lookalike.howToProceed);
  // A plan that writes nothing has nothing to refuse (an empty config under --no-delete).
  if (options.force || plan.operations.length === 0) return undefined;
  const managed = plan.summary.managed;
  // Children the service deletes with their parent count too: removing one edge with its 8 routes
  // removes 9 objects, not 1. Duplicates of a key that two writers created at once are clean-up,
  // not a deletion of what the config manages (docs/lease.md).
  const deletes = plan.operations.reduce(
    (n, op) => n + (op.reason_code === 'delete_because_duplicate' ? 0 : removedBy(op)),
    0,
  );
  if (desired.objects.length === 0 && managed > 0 && options.allowEmpty !== true) {
    return new GuardRefusal(
      'empty_config',
      `the config is empty but ${managed} objects in scope '${plan.scope}' are managed by it`,
      ['Every managed object would be deleted:', ...describeDeletes(plan)],
      `Check the config paths (${plan.configPaths.join(', ') || 'none given'}). To really delete everything, set 'guards: { allow_empty: true }' in the config, reviewed with this change (or run once with --force).`,
    );
  }
  if (managed < options.maxDeleteMinManaged || deletes === 0) return undefined;
  const percent = (deletes / managed) * 100;
  if (percent > options.maxDeletePercent) {
    return new GuardRefusal(
      'mass_delete',
      `the plan deletes or replaces ${deletes} of ${managed} managed objects (${Math.round(percent)}%, the limit is ${options.maxDeletePercent}%)`,
      ['Objects that would be deleted:', ...describeDeletes(plan)],
      `Review the plan (acctsync plan). If it is what you want, raise 'guards: { max_delete_percent: ${Math.ceil(percent)} }' in the config, reviewed with this change (or run once with --max-delete-percent or --force); --no-delete applies everything else.`,
    );
  }
  return undefined;
}
