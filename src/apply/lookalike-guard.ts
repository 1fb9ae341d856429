/**
 * The refusal of a create beside an unmanaged look-alike: an entry with no object of its own while
 * an unmarked object of its kind has the same natural key (or a unique value in common) is most
 * often that very object with its marker edited out of `metadata` in the dashboard. Creating it
 * would leave a duplicate and move the nested items to it; only the user can say which it is.
 * Not a limit `--force` lifts: the way through is `--adopt`, or `id: new` on the entry.
 */
import type { Plan } from '../plan/types.js';
import { descriptorOf } from '../resources/index.js';

const howToProceed =
  "If it is the entry's object (its ownership marker was edited out of its metadata), run once with --adopt to take it back: its metadata becomes the config's, with the marker (text written there in the dashboard is replaced). If it is another object, write `id: new` on the entry to create one beside it.";

/** What sync would refuse for the plan's look-alikes, when it has any. */
export function lookalikeRefusal(
  plan: Plan,
): { reason: string; listing: string[]; howToProceed: string } | undefined {
  const lookalikes = plan.lookalikes ?? [];
  if (lookalikes.length === 0) return undefined;
  const n = lookalikes.length;
  return {
    reason: `${n} ${n === 1 ? 'entry' : 'entries'} would be created beside an unmanaged object that looks like ${n === 1 ? 'it' : 'them'}`,
    listing: lookalikes.map(
      (l) =>
        `  + ${l.key}: ${l.objects.map((o) => `${descriptorOf(o.kind).title} ${o.id} has the same ${o.same}`).join('; ')}`,
    ),
    howToProceed,
  };
}
