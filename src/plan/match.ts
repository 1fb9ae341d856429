/**
 * Pairs desired objects with live ones (see `matchObjects` for the order): by ownership marker,
 * by a rename (`renames.ts`), by the entry's `id:` pin, and with `adopt` by natural key (or unique
 * description) among unmarked objects. Objects of other scopes are never paired; marked objects of this scope that no desired
 * object claims are the candidates for deletion.
 */
import { UserError } from '../errors.js';
import {
  aTitle,
  claimKeys,
  descriptorOf,
  isObjectKey,
  naturalIdentity,
  type DesiredObject,
  type DesiredState,
  newObjectPin,
} from '../resources/index.js';
import { compare } from '../compare.js';
import type { LiveObject, LiveState } from '../live/index.js';
import type { Lookalike } from '../plan-format/index.js';
import {
  indexLive,
  markerSlot,
  Pairing,
  type AdoptCause,
  type LiveIndex,
  type RenameCause,
} from './pairing.js';
import { desiredParentId } from './parents.js';
import { pairObserved } from './observed.js';
import { itemsAddedOutside } from './outside-items.js';
import { handOverKeys, pairByMove, pairByParent, pairByUniqueValue } from './renames.js';
import { whoseId } from '../whose-id.js';

export interface Match {
  readonly desired: DesiredObject;
  /** Absent when the object does not exist yet. */
  readonly live?: LiveObject;
  /** The live object is unmarked and taken over. */
  readonly adopted: boolean;
  /** Why an adopted object is this one: its `id:` pin, its natural key, or its nested items' markers. */
  readonly adoptedBy?: AdoptCause;
  /** The key the live object's marker holds, when this entry takes it over under another key. */
  readonly renamedFrom?: string;
  readonly renamedBy?: RenameCause;
}

/** A match whose object exists. */
export type Paired = Match & { readonly live: LiveObject };

export function isPaired(m: Match): m is Paired {
  return m.live !== undefined;
}

/** A live object to delete: marked by this scope and claimed by no entry, or added outside acctsync. */
export interface Orphan {
  readonly live: LiveObject;
  /** The key its delete shows: its marker's, or for an item added outside, the one an entry would have. */
  readonly key: string;
  readonly reason: string;
  readonly reasonCode:
    'delete_because_removed_from_config' | 'delete_because_duplicate' | 'delete_because_added_outside';
}

export interface Matching {
  /** One per desired object, sorted by key. */
  readonly matches: readonly Match[];
  readonly orphans: readonly Orphan[];
  readonly notes: readonly string[];
  /** Desired objects with no object that unmanaged objects resemble (without `--adopt`): sync refuses them. */
  readonly lookalikes: readonly Lookalike[];
  /** Unmarked live objects no desired object took: where a create may have a look-alike. */
  readonly unmanaged: readonly LiveObject[];
}

interface MatchOptions {
  readonly scope: string;
  readonly adopt: boolean;
  /** The environment planned, for a config that declares environments: ids are per account. */
  readonly environment?: string | undefined;
  /** The config's other environments, named by the hint on a pin this account lacks. */
  readonly otherEnvironments?: readonly string[];
}

/** The parent id a desired object's natural key is scoped by, once its parent is matched. */
function parentIdOf(o: DesiredObject, matchedIds: ReadonlyMap<string, string>): string | undefined {
  return desiredParentId(descriptorOf(o.kind), o, (ref) => (isObjectKey(ref) ? matchedIds.get(ref) : ref));
}

function pairByMarker(sorted: readonly DesiredObject[], index: LiveIndex, pairing: Pairing): void {
  for (const o of sorted) {
    if (pairing.found.has(o)) continue;
    const live = index.byMarker.get(markerSlot(o.kind, o.key))?.find((l) => !pairing.claimed.has(l));
    if (live !== undefined) pairing.pair(o, live);
  }
}

/** Why the object pinned by `o` cannot be paired with it, if it cannot. */
function pinProblem(
  o: DesiredObject,
  l: LiveObject,
  pairing: Pairing,
  options: MatchOptions,
): string | undefined {
  if (l.kind !== o.kind)
    return `${o.pin} is ${aTitle(descriptorOf(l.kind))}, not ${aTitle(descriptorOf(o.kind))}`;
  if (pairing.claimed.has(l))
    return `${o.pin} is already paired with ${pairing.pinnedBy.get(l) ?? l.marker?.key ?? 'another entry'}`;
  if (l.marker !== undefined && l.marker.scope !== options.scope)
    return `${o.pin} is managed by scope ${l.marker.scope}`;
  if (l.marker === undefined && !options.adopt)
    return `${o.pin} is not managed yet: run with --adopt to take it over`;
  return undefined;
}

/** What is wrong with a pin no live object has: in an environment, most likely another account's id. */
function missingPin(o: DesiredObject, pin: string, options: MatchOptions): string {
  const missing = `no ${descriptorOf(o.kind).title} with id ${pin} exists`;
  if (options.environment === undefined) return missing;
  return `${missing} in ${options.environment}'s account: it may be ${whoseId(options.otherEnvironments ?? [])} (the account it was exported from)`;
}

/** @throws {UserError} listing every pin that cannot be paired */
function pairByPin(
  sorted: readonly DesiredObject[],
  index: LiveIndex,
  pairing: Pairing,
  options: MatchOptions,
): void {
  const pinErrors: string[] = [];
  for (const o of sorted) {
    if (pairing.found.has(o) || o.pin === undefined || o.pin === newObjectPin) continue;
    const l = index.byId.get(o.pin);
    const problem = l === undefined ? missingPin(o, o.pin, options) : pinProblem(o, l, pairing, options);
    if (l === undefined || problem !== undefined) {
      pinErrors.push(`${o.key}: ${problem}`);
      continue;
    }
    pairing.pair(o, l, l.marker === undefined ? 'pin' : undefined);
    pairing.pinnedBy.set(l, o.key);
  }
  if (pinErrors.length > 0) {
    throw new UserError('the config pins ids that cannot be paired', {
      details: [
        ...pinErrors,
        options.environment === undefined
          ? 'Fix or remove the `id:` members (export the account again to see its ids); nothing was changed.'
          : `Ids are per account, and the base is read by every environment: keep each \`id:\` in the overlay of the environment whose account has it (\`acctsync export CONFIG --env THAT --move-ids\` moves the base's ids there), or remove it (docs/environments.md, "From one exported account"); nothing was changed.`,
      ],
    });
  }
}

/** Unmarked objects by the claim keys they hold (see `claimKeys`). */
function byClaim(unmarked: readonly LiveObject[]): Map<string, LiveObject[]> {
  const out = new Map<string, LiveObject[]>();
  for (const l of unmarked) {
    for (const k of claimKeys(descriptorOf(l.kind), l.record, l.parentId)) {
      const list = out.get(k);
      if (list === undefined) out.set(k, [l]);
      else list.push(l);
    }
  }
  return out;
}

/** The unmanaged objects holding a unique value `o` would claim (a hostport of an edge, a domain). */
function holdingUniqueValue(
  o: DesiredObject,
  parentId: string | undefined,
  claimed: ReadonlyMap<string, readonly LiveObject[]>,
): LiveObject[] {
  const held = claimKeys(descriptorOf(o.kind), o.fields, parentId).flatMap((k) => claimed.get(k) ?? []);
  return [...new Set(held)];
}

/** This scope's marked objects under each parent id: a parent whose own marker is gone still has theirs. */
function markedChildren(index: LiveIndex): Map<string, LiveObject[]> {
  const out = new Map<string, LiveObject[]>();
  for (const l of [...index.byMarker.values()].flat()) {
    if (l.parentId === undefined) continue;
    const list = out.get(l.parentId);
    if (list === undefined) out.set(l.parentId, [l]);
    else list.push(l);
  }
  return out;
}

/** Unmarked objects by kind and natural identity, computed once (an identity may parse a PEM). */
function byIdentity(unmarked: readonly LiveObject[]): Map<string, LiveObject[]> {
  const out = new Map<string, LiveObject[]>();
  for (const l of unmarked) {
    const identity = naturalIdentity(descriptorOf(l.kind), l.record, l.parentId);
    if (identity === undefined) continue;
    const slot = `${l.kind} ${identity}`;
    const list = out.get(slot);
    if (list === undefined) out.set(slot, [l]);
    else list.push(l);
  }
  return out;
}

/**
 * Pairs the objects left with unmarked ones of the same natural key (or whose nested items still
 * carry their marker) when adopting. Without adopting, an object with unmarked look-alikes (same
 * natural key, a unique value in common, nested items marked as its own) is returned as a look-alike: creating it would put a duplicate beside what may be the very object
 * (its marker edited away in the dashboard), so sync refuses it (`lookalikeRefusal`).
 */
function pairByNaturalKey(
  sorted: readonly DesiredObject[],
  index: LiveIndex,
  pairing: Pairing,
  adopt: boolean,
): { notes: string[]; lookalikes: Lookalike[] } {
  const notes: string[] = [];
  const lookalikes: Lookalike[] = [];
  // Parents before children: a child's natural key is unique only within its (matched) parent.
  const unmatched = sorted.filter((o) => !pairing.found.has(o) && o.pin === undefined);
  const byDepth = [...unmatched].sort(
    (a, b) => Number(a.parentKey !== undefined) - Number(b.parentKey !== undefined),
  );
  const candidatesBy = byIdentity(index.unmarked);
  const markedUnder = markedChildren(index);
  const holders = adopt ? new Map<string, LiveObject[]>() : byClaim(index.unmarked);
  const orphanedParents = index.unmarked.filter((l) => markedUnder.has(l.id));
  for (const o of byDepth) {
    const d = descriptorOf(o.kind);
    const parentId = parentIdOf(o, pairing.matchedIds);
    const identity = naturalIdentity(d, o.fields, parentId);
    const candidates = (
      identity === undefined ? [] : (candidatesBy.get(`${o.kind} ${identity}`) ?? [])
    ).filter((l) => !pairing.claimed.has(l));
    const by = d.naturalKey ? d.naturalKey.fields.join(' and ') : 'description';
    const [only] = candidates;
    // Without a natural key or description, its nested items may still carry its marker.
    const parents =
      only !== undefined
        ? []
        : orphanedParents.filter(
            (l) =>
              l.kind === o.kind &&
              !pairing.claimed.has(l) &&
              (markedUnder.get(l.id) ?? []).some((child) => child.marker?.key?.startsWith(`${o.key}/`)),
          );
    const childTitle = (l: LiveObject) =>
      descriptorOf(markedUnder.get(l.id)?.[0]?.kind ?? o.kind).titlePlural;
    if (!adopt) {
      const holding = holdingUniqueValue(o, parentId, holders).filter(
        (l) => !pairing.claimed.has(l) && !candidates.includes(l),
      );
      if (only !== undefined || holding.length > 0 || parents.length > 0) {
        lookalikes.push({
          key: o.key,
          kind: o.kind,
          objects: [
            ...candidates.map((l) => ({ kind: l.kind, id: l.id, same: by })),
            ...holding.map((l) => ({ kind: l.kind, id: l.id, same: by.replace(/s$/, '') })),
            ...parents
              .filter((l) => !holding.includes(l))
              .map((l) => ({ kind: l.kind, id: l.id, same: `${childTitle(l)} (marked as ${o.key}'s)` })),
          ],
        });
      }
    } else if (only === undefined) {
      const [parent, ...others] = parents;
      if (parent !== undefined && others.length === 0) pairing.pair(o, parent, 'marked children');
      continue;
    } else if (candidates.length > 1) {
      notes.push(
        `${o.key}: not adopted: ${candidates.length} unmanaged ${d.titlePlural} have the same ${by} (${candidates.map((c) => c.id).join(', ')})`,
      );
    } else {
      pairing.pair(o, only, d.naturalKey ? 'natural key' : 'description');
    }
  }
  return { notes, lookalikes };
}

/**
 * This scope's marked objects no desired object took, and the unmarked items added to the nested
 * collections of the objects it writes, by key then id.
 */
function orphansOf(index: LiveIndex, pairing: Pairing, sorted: readonly DesiredObject[]): Orphan[] {
  const orphans: Orphan[] = [];
  for (const group of index.byMarker.values()) {
    for (const l of group) {
      if (pairing.claimed.has(l)) continue;
      const key = l.marker?.key ?? l.id;
      const duplicate = group.some((other) => pairing.claimed.has(other));
      orphans.push(
        duplicate
          ? {
              live: l,
              key,
              reason: 'a duplicate of the managed object',
              reasonCode: 'delete_because_duplicate',
            }
          : { live: l, key, reason: 'left the config', reasonCode: 'delete_because_removed_from_config' },
      );
    }
  }
  const parents = new Map([...pairing.found].map(([o, l]) => [l.id, o]));
  const unclaimed = index.unmarked.filter((l) => !pairing.claimed.has(l));
  for (const { live, key } of itemsAddedOutside(unclaimed, parents, new Set(sorted.map((o) => o.key))))
    orphans.push({ live, key, reason: 'added outside acctsync', reasonCode: 'delete_because_added_outside' });
  return orphans.sort((a, b) => compare(a.key, b.key) || compare(a.live.id, b.live.id));
}

function matchOf(o: DesiredObject, pairing: Pairing, scope: string): Match {
  const l = pairing.found.get(o);
  const by = pairing.adopted.get(o);
  if (l === undefined) return { desired: o, adopted: false };
  if (by !== undefined) return { desired: o, live: l, adopted: true, adoptedBy: by };
  if (o.observe === true) return { desired: o, live: l, adopted: false };
  const before = l.marker?.scope === scope ? l.marker.key : undefined;
  if (before === undefined || before === o.key) return { desired: o, live: l, adopted: false };
  // Any other pairing of a marked object under a new key is by its `id:` pin.
  return {
    desired: o,
    live: l,
    adopted: false,
    renamedFrom: before,
    renamedBy: pairing.renamedBy.get(o) ?? 'pin',
  };
}

/**
 * Pairs in this order: observed entries (by pin or natural key, whoever manages the object); by
 * marker (same key, undone where the key was handed over: `handOverKeys`); renames by the config's `moved:` entries; `id:`
 * pins; renames the service proves (a unique value in common); nested items of renamed parents;
 * with `adopt`, unmarked objects by natural key.
 * @throws {UserError} when an `id:` pin cannot be paired, or a move changes an object's kind
 */
export function matchObjects(desired: DesiredState, live: LiveState, options: MatchOptions): Matching {
  const index = indexLive(live, options.scope);
  const sorted = [...desired.objects].sort((a, b) => compare(a.key, b.key));
  const pairing = new Pairing();
  pairObserved(sorted, index, pairing);
  pairByMarker(sorted, index, pairing);
  handOverKeys(sorted, index, pairing);
  const moveNotes = pairByMove(sorted, index, pairing, desired.moves ?? []);
  pairByPin(sorted, index, pairing, options);
  pairByUniqueValue(sorted, index, pairing);
  pairByParent(sorted, index, pairing);
  const { notes, lookalikes } = pairByNaturalKey(sorted, index, pairing, options.adopt);
  const orphans = orphansOf(index, pairing, sorted);
  const orphaned = new Set(orphans.map((o) => o.live));
  return {
    matches: sorted.map((o) => matchOf(o, pairing, options.scope)),
    orphans,
    notes: [...moveNotes, ...notes],
    lookalikes,
    // An item added by hand inside a managed object is that object's drift (an orphan), not unmanaged.
    unmanaged: index.unmarked.filter((l) => !pairing.claimed.has(l) && !orphaned.has(l)),
  };
}
