/**
 * The refusals a run checks before its first API write, as data (`GuardRefusal`), so that `plan` can
 * show them in a pull request's comment and `sync` prints them. One module because they are one
 * decision: `guardRefusal` asks them in order, the look-alike refusal first, since `--force` lifts
 * the others but not it.
 *
 * The mass-delete and empty-config guards: a plan that would delete much of what this config
 * manages is far more often a mistake (a wrong path, a half-merged branch, an empty file) than an
 * intent, so it needs `--force`.
 *
 * The look-alike refusal: an entry with no object of its own while an unmarked object of its kind
 * has the same natural key (or a unique value in common) is most often that very object with its
 * marker edited out of `metadata` in the dashboard. Creating it would leave a duplicate and move
 * the nested items to it; only the user can say which it is. Not a limit `--force` lifts: the way
 * through is `--adopt`, or `id: new` on the entry.
 */
import { counted } from '../count.js';
import { UserError } from '../errors.js';
import { defaultGuardOptions } from './defaults.js';
import { describeCascade, removedBy } from '../plan-format/index.js';
import type { Lookalike, Plan, SyncGuard } from '../plan-format/index.js';
import { builtinKinds, type DesiredState, type KindRegistry } from '../resources/index.js';

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

/** The way through a look-alike refusal, whichever the object turns out to be. */
const lookalikeWayThrough =
  "If it is the entry's object (its ownership marker was edited out of its metadata), run once with --adopt to take it back: its metadata becomes the config's, with the marker (text written there in the dashboard is replaced). If it is another object, write `id: new` on the entry to create one beside it.";

/** Lists at most this many entries in the reason (a notification's one line); the listing has all. */
const namedMax = 5;

/**
 * What sync would refuse for the plan's look-alikes, when it has any. The reason names the entries
 * and ids itself, since a watch notification carries the reason alone.
 */
function lookalikeRefusal(
  plan: Plan,
  kinds: KindRegistry,
): { reason: string; listing: string[]; howToProceed: string } | undefined {
  const lookalikes = plan.lookalikes ?? [];
  const [only] = lookalikes;
  if (only === undefined) return undefined;
  const ids = (l: Lookalike) => l.objects.map((o) => o.id).join(', ');
  const reason =
    lookalikes.length === 1
      ? `${only.key} would be created beside the unmanaged ${only.objects.map((o) => `${kinds.descriptorOf(o.kind).title} ${o.id} (same ${o.same})`).join(' and ')}: --adopt takes it back`
      : `${lookalikes.length} entries would be created beside unmanaged look-alikes: ${lookalikes
          .slice(0, namedMax)
          .map((l) => `${l.key} (${ids(l)})`)
          .join(
            ', ',
          )}${lookalikes.length > namedMax ? `, and ${lookalikes.length - namedMax} more` : ''}: --adopt takes them back`;
  return {
    reason,
    listing: lookalikes.map(
      (l) =>
        `  + ${l.key}: ${l.objects.map((o) => `${kinds.descriptorOf(o.kind).title} ${o.id} has the same ${o.same}`).join('; ')}`,
    ),
    howToProceed: lookalikeWayThrough,
  };
}

/** Lists at most this many objects in the refusal; the rest are counted. */
const listedMax = 20;

function describeDeletes(plan: Plan, kinds: KindRegistry): string[] {
  const deletes = plan.operations.filter((op) => op.action === 'delete');
  const lines = deletes
    .slice(0, listedMax)
    .map(
      (op) =>
        `  - ${op.key} (${op.liveId ?? 'unknown id'})${op.replaces === undefined ? '' : ', replaced'}${describeCascade(op.cascade, kinds)}`,
    );
  if (deletes.length > listedMax) lines.push(`  ... and ${deletes.length - listedMax} more`);
  return lines;
}

/** What the guards would refuse in `plan` (and how to proceed), for `plan` to show before a sync. */
export function guardRefusal(
  plan: Plan,
  desired: DesiredState,
  options: GuardOptions,
  kinds: KindRegistry = builtinKinds,
): GuardRefusal | undefined {
  const lookalike = lookalikeRefusal(plan, kinds);
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
      `the config is empty but ${counted(managed, 'object', 'objects')} in scope '${plan.scope}' are managed by it`,
      ['Every managed object would be deleted:', ...describeDeletes(plan, kinds)],
      `Check the config paths (${plan.configPaths.join(', ') || 'none given'}). To really delete everything, set 'guards: { allow_empty: true }' in the config, reviewed with this change (or run once with --force).`,
    );
  }
  if (managed < options.maxDeleteMinManaged || deletes === 0) return undefined;
  const percent = (deletes / managed) * 100;
  if (percent > options.maxDeletePercent) {
    return new GuardRefusal(
      'mass_delete',
      `the plan deletes or replaces ${deletes} of ${managed} managed objects (${Math.round(percent)}%, the limit is ${options.maxDeletePercent}%)`,
      ['Objects that would be deleted:', ...describeDeletes(plan, kinds)],
      `Review the plan (acctsync plan). If it is what you want, raise 'guards: { max_delete_percent: ${Math.ceil(percent)} }' in the config, reviewed with this change (or run once with --max-delete-percent or --force); --no-delete applies everything else.`,
    );
  }
  return undefined;
}
