/**
 * Observed entries (`observe: true`, docs/config.md "Observed objects"): each is paired with the
 * live object its `id:` pins, else the one of its kind with the same natural key, whoever manages
 * it; it is never written, so a missing one is an error rather than a create.
 */
import { UserError } from '../errors.js';
import type { LiveObject } from '../live/index.js';
import { naturalIdentity, type DesiredObject } from '../resources/index.js';
import type { LiveIndex, Pairing } from './pairing.js';
import { desiredParentId } from './parents.js';

/** Why no single live object is `o`, or the one that is. */
function observedObject(o: DesiredObject, index: LiveIndex, pairing: Pairing): LiveObject | string {
  const d = pairing.kinds.descriptorOf(o.kind);
  if (o.pin !== undefined) {
    const l = index.byId.get(o.pin);
    return l?.kind === o.kind ? l : `no ${d.title} with id ${o.pin} exists`;
  }
  const parentId = desiredParentId(d, o, (ref) => pairing.matchedIds.get(ref) ?? ref);
  const identity = naturalIdentity(d, o.fields, parentId);
  if (identity === undefined) return `it has no natural key to find it by: pin it with id:`;
  const found = index.all.filter(
    (l) =>
      l.kind === o.kind && !pairing.claimed.has(l) && naturalIdentity(d, l.record, l.parentId) === identity,
  );
  const [only, ...more] = found;
  if (only === undefined)
    return `no ${d.title} with the same ${d.naturalKey?.fields.join(' and ') ?? 'description'} exists`;
  if (more.length > 0)
    return `${found.length} ${d.titlePlural} match (${found.map((l) => l.id).join(', ')}): pin one with id:`;
  return only;
}

/**
 * Pairs every observed entry, parents before their nested items.
 * @throws {UserError} naming every observed entry with no single live object
 */
export function pairObserved(sorted: readonly DesiredObject[], index: LiveIndex, pairing: Pairing): void {
  const observed = sorted
    .filter((o) => o.observe === true)
    .sort((a, b) => Number(a.parentKey !== undefined) - Number(b.parentKey !== undefined));
  const missing: string[] = [];
  const unfound = new Set<string>();
  for (const o of observed) {
    // A nested item of an entry not found is not looked for: its parent says it all.
    if (o.parentKey !== undefined && unfound.has(o.parentKey)) continue;
    const found = observedObject(o, index, pairing);
    if (typeof found === 'string') unfound.add(o.key);
    if (typeof found === 'string') missing.push(`${o.key} (${o.source.file}:${o.source.line}): ${found}`);
    else pairing.pair(o, found);
  }
  if (missing.length > 0) {
    throw new UserError('observed objects not found in the account', {
      details: [
        ...missing,
        'An observed entry is never created: fix its id: or its values, or remove it; nothing was changed.',
      ],
    });
  }
}
