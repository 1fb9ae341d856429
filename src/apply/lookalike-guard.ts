/**
 * The refusal of a create beside an unmanaged look-alike: an entry with no object of its own while
 * an unmarked object of its kind has the same natural key (or a unique value in common) is most
 * often that very object with its marker edited out of `metadata` in the dashboard. Creating it
 * would leave a duplicate and move the nested items to it; only the user can say which it is.
 * Not a limit `--force` lifts: the way through is `--adopt`, or `id: new` on the entry.
 */
import type { Lookalike, Plan } from '../plan-format/index.js';
import { descriptorOf } from '../resources/index.js';

const howToProceed =
  "If it is the entry's object (its ownership marker was edited out of its metadata), run once with --adopt to take it back: its metadata becomes the config's, with the marker (text written there in the dashboard is replaced). If it is another object, write `id: new` on the entry to create one beside it.";

/** Lists at most this many entries in the reason (a notification's one line); the listing has all. */
const namedMax = 5;

/**
 * What sync would refuse for the plan's look-alikes, when it has any. The reason names the entries
 * and ids itself, since a watch notification carries the reason alone.
 */
export function lookalikeRefusal(
  plan: Plan,
): { reason: string; listing: string[]; howToProceed: string } | undefined {
  const lookalikes = plan.lookalikes ?? [];
  const [only] = lookalikes;
  if (only === undefined) return undefined;
  const ids = (l: Lookalike) => l.objects.map((o) => o.id).join(', ');
  const reason =
    lookalikes.length === 1
      ? `${only.key} would be created beside the unmanaged ${only.objects.map((o) => `${descriptorOf(o.kind).title} ${o.id} (same ${o.same})`).join(' and ')}: --adopt takes it back`
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
        `  + ${l.key}: ${l.objects.map((o) => `${descriptorOf(o.kind).title} ${o.id} has the same ${o.same}`).join('; ')}`,
    ),
    howToProceed,
  };
}
