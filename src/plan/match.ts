/**
 * Pairs desired objects with live ones (see `matchObjects` for the order): by ownership marker,
 * by a rename (`renames.ts`), by the entry's `id:` pin, and with `adopt` by natural key (or unique
 * description) among unmarked objects. Objects of other scopes are never paired; marked objects of this scope that no desired
 * object claims are the candidates for deletion.
 */
import { UserError } from '../errors.js';
import {
  aTitle,
  descriptorOf,
  isObjectKey,
  naturalIdentity,
  type DesiredObject,
  type DesiredState,
  newObjectPin,
} from '../resources/index.js';
import { compare } from '../compare.js';
import type { LiveObject, LiveState } from '../live/index.js';
import { indexLive, markerSlot, Pairing, type LiveIndex, type RenameCause } from './pairing.js';
import { desiredParentId } from './parents.js';
import { pairObserved } from './observed.js';
import { handOverKeys, pairByMove, pairByParent, pairByUniqueValue } from './renames.js';

export interface Match {
  readonly desired: DesiredObject;
  /** Absent when the object does not exist yet. */
  readonly live?: LiveObject;
  /** The live object is unmarked and taken over. */
  readonly adopted: boolean;
  /** Why an adopted object is this one: its `id:` pin, or its natural key. */
  readonly adoptedBy?: 'pin' | 'natural key';
  /** The key the live object's marker holds, when this entry takes it over under another key. */
  readonly renamedFrom?: string;
  readonly renamedBy?: RenameCause;
}

/** A match whose object exists. */
export type Paired = Match & { readonly live: LiveObject };

export function isPaired(m: Match): m is Paired {
  return m.live !== undefined;
}

/** A marked live object no desired object claims. */
export interface Orphan {
  readonly live: LiveObject;
  readonly reason: string;
  readonly reasonCode: 'delete_because_removed_from_config' | 'delete_because_duplicate';
}

export interface Matching {
  /** One per desired object, sorted by key. */
  readonly matches: readonly Match[];
  readonly orphans: readonly Orphan[];
  readonly notes: readonly string[];
  /** Unmarked live objects no desired object took: where a create may have a look-alike. */
  readonly unmanaged: readonly LiveObject[];
}

interface MatchOptions {
  readonly scope: string;
  readonly adopt: boolean;
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
    const problem =
      l === undefined
        ? `no ${descriptorOf(o.kind).title} with id ${o.pin} exists`
        : pinProblem(o, l, pairing, options);
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
        'Fix or remove the `id:` members (export the account again to see its ids); nothing was changed.',
      ],
    });
  }
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
 * Pairs the objects left with unmarked ones of the same natural key when adopting, and returns the
 * notes on those it did not (not adopting, or several candidates).
 */
function pairByNaturalKey(
  sorted: readonly DesiredObject[],
  index: LiveIndex,
  pairing: Pairing,
  adopt: boolean,
): string[] {
  const notes: string[] = [];
  // Parents before children: a child's natural key is unique only within its (matched) parent.
  const unmatched = sorted.filter((o) => !pairing.found.has(o) && o.pin === undefined);
  const byDepth = [...unmatched].sort(
    (a, b) => Number(a.parentKey !== undefined) - Number(b.parentKey !== undefined),
  );
  const candidatesBy = byIdentity(index.unmarked);
  for (const o of byDepth) {
    const d = descriptorOf(o.kind);
    const identity = naturalIdentity(d, o.fields, parentIdOf(o, pairing.matchedIds));
    if (identity === undefined) continue;
    const candidates = (candidatesBy.get(`${o.kind} ${identity}`) ?? []).filter(
      (l) => !pairing.claimed.has(l),
    );
    const by = d.naturalKey ? d.naturalKey.fields.join(' and ') : 'description';
    const [only] = candidates;
    if (only === undefined) continue;
    if (!adopt) {
      notes.push(
        `${o.key}: an unmanaged ${d.title} with the same ${by} exists (${candidates.map((c) => c.id).join(', ')}); ` +
          'run with --adopt to take it over instead of creating a new one',
      );
    } else if (candidates.length > 1) {
      notes.push(
        `${o.key}: not adopted: ${candidates.length} unmanaged ${d.titlePlural} have the same ${by} (${candidates.map((c) => c.id).join(', ')})`,
      );
    } else {
      pairing.pair(o, only, 'natural key');
    }
  }
  return notes;
}

/** This scope's marked objects no desired object took, by key then id. */
function orphansOf(index: LiveIndex, pairing: Pairing): Orphan[] {
  const orphans: Orphan[] = [];
  for (const group of index.byMarker.values()) {
    for (const l of group) {
      if (pairing.claimed.has(l)) continue;
      const duplicate = group.some((other) => pairing.claimed.has(other));
      orphans.push(
        duplicate
          ? { live: l, reason: 'a duplicate of the managed object', reasonCode: 'delete_because_duplicate' }
          : { live: l, reason: 'left the config', reasonCode: 'delete_because_removed_from_config' },
      );
    }
  }
  return orphans.sort(
    (a, b) => compare(a.live.marker?.key ?? '', b.live.marker?.key ?? '') || compare(a.live.id, b.live.id),
  );
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
  const notes = pairByNaturalKey(sorted, index, pairing, options.adopt);
  return {
    matches: sorted.map((o) => matchOf(o, pairing, options.scope)),
    orphans: orphansOf(index, pairing),
    notes: [...moveNotes, ...notes],
    unmanaged: index.unmarked.filter((l) => !pairing.claimed.has(l)),
  };
}
