/**
 * Pairs desired objects with live ones, in this order: by ownership marker (this scope, same key);
 * by the entry's `id:` pin; and with `adopt` by natural key (or unique description) among unmarked
 * objects. Objects of other scopes are never paired; marked objects of this scope that no desired
 * object claims are the candidates for deletion.
 */
import { newObjectPin } from '../config/layout.js';
import { UserError } from '../errors.js';
import {
  descriptorOf,
  isObjectKey,
  naturalIdentity,
  type DesiredObject,
  type DesiredState,
} from '../resources/index.js';
import { compare, type LiveObject, type LiveState } from './live.js';

export interface Match {
  readonly desired: DesiredObject;
  /** Absent when the object does not exist yet. */
  readonly live?: LiveObject;
  /** The live object is unmarked and taken over. */
  readonly adopted: boolean;
  /** Why an adopted object is this one: its `id:` pin, or its natural key. */
  readonly adoptedBy?: 'pin' | 'natural key';
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

export interface MatchOptions {
  readonly scope: string;
  readonly adopt: boolean;
}

/** The parent id a desired object's natural key is scoped by, once its parent is matched. */
function parentIdOf(o: DesiredObject, matchedIds: ReadonlyMap<string, string>): string | undefined {
  const link = descriptorOf(o.kind).parent;
  if (link === undefined) return undefined;
  const ref = link.via === 'field' ? o.fields[link.field] : o.parentKey;
  if (typeof ref !== 'string') return undefined;
  return isObjectKey(ref) ? matchedIds.get(ref) : ref;
}

export function matchObjects(desired: DesiredState, live: LiveState, options: MatchOptions): Matching {
  const byMarker = new Map<string, LiveObject[]>();
  const unmarked: LiveObject[] = [];
  for (const o of live.objects) {
    if (o.marker === undefined) unmarked.push(o);
    else if (o.marker.scope === options.scope) {
      const k = `${o.kind} ${o.marker.key}`;
      byMarker.set(k, [...(byMarker.get(k) ?? []), o]);
    }
  }

  const sorted = [...desired.objects].sort((a, b) => compare(a.key, b.key));
  const claimed = new Set<LiveObject>();
  const matchedIds = new Map<string, string>();
  const found = new Map<DesiredObject, LiveObject>();
  for (const o of sorted) {
    const live = byMarker.get(`${o.kind} ${o.key}`)?.[0];
    if (live === undefined) continue;
    found.set(o, live);
    claimed.add(live);
    matchedIds.set(o.key, live.id);
  }

  const adopted = new Map<DesiredObject, 'pin' | 'natural key'>();
  const pinErrors: string[] = [];
  const liveById = new Map(live.objects.map((l) => [l.id, l]));
  const pinnedBy = new Map<LiveObject, string>();
  for (const o of sorted) {
    if (found.has(o) || o.pin === undefined || o.pin === newObjectPin) continue;
    const l = liveById.get(o.pin);
    if (l === undefined) {
      pinErrors.push(`${o.key}: no ${descriptorOf(o.kind).title} with id ${o.pin} exists`);
      continue;
    }
    const problem =
      l.kind !== o.kind
        ? `${o.pin} is a ${descriptorOf(l.kind).title}, not a ${descriptorOf(o.kind).title}`
        : claimed.has(l)
          ? `${o.pin} is already paired with ${pinnedBy.get(l) ?? l.marker?.key ?? 'another entry'}`
          : l.marker !== undefined && l.marker.scope !== options.scope
            ? `${o.pin} is managed by scope ${l.marker.scope}`
            : l.marker === undefined && !options.adopt
              ? `${o.pin} is not managed yet: run with --adopt to take it over`
              : undefined;
    if (problem !== undefined) {
      pinErrors.push(`${o.key}: ${problem}`);
      continue;
    }
    found.set(o, l);
    claimed.add(l);
    pinnedBy.set(l, o.key);
    matchedIds.set(o.key, l.id);
    if (l.marker === undefined) adopted.set(o, 'pin');
  }
  if (pinErrors.length > 0) {
    throw new UserError('the config pins ids that cannot be paired', {
      details: [
        ...pinErrors,
        'Fix or remove the `id:` members (export the account again to see its ids); nothing was changed.',
      ],
    });
  }

  // Parents before children: a child's natural key is unique only within its (matched) parent.
  const notes: string[] = [];
  const unmatched = sorted.filter((o) => !found.has(o) && o.pin === undefined);
  const byDepth = [...unmatched].sort(
    (a, b) => Number(a.parentKey !== undefined) - Number(b.parentKey !== undefined),
  );
  // Unmarked objects by kind and natural identity, computed once (an identity may parse a PEM).
  const byIdentity = new Map<string, LiveObject[]>();
  for (const l of unmarked) {
    const identity = naturalIdentity(descriptorOf(l.kind), l.record, l.parentId);
    if (identity === undefined) continue;
    const slot = `${l.kind} ${identity}`;
    const list = byIdentity.get(slot);
    if (list === undefined) byIdentity.set(slot, [l]);
    else list.push(l);
  }
  for (const o of byDepth) {
    const d = descriptorOf(o.kind);
    const identity = naturalIdentity(d, o.fields, parentIdOf(o, matchedIds));
    if (identity === undefined) continue;
    const candidates = (byIdentity.get(`${o.kind} ${identity}`) ?? []).filter((l) => !claimed.has(l));
    const by = d.naturalKey ? d.naturalKey.fields.join(' and ') : 'description';
    const [only] = candidates;
    if (only === undefined) continue;
    if (!options.adopt) {
      notes.push(
        `${o.key}: an unmanaged ${d.title} with the same ${by} exists (${candidates.map((c) => c.id).join(', ')}); ` +
          'run with --adopt to take it over instead of creating a new one',
      );
    } else if (candidates.length > 1) {
      notes.push(
        `${o.key}: not adopted: ${candidates.length} unmanaged ${d.title}s have the same ${by} (${candidates.map((c) => c.id).join(', ')})`,
      );
    } else {
      found.set(o, only);
      adopted.set(o, 'natural key');
      claimed.add(only);
      matchedIds.set(o.key, only.id);
    }
  }

  const matches = sorted.map((o): Match => {
    const l = found.get(o);
    const by = adopted.get(o);
    if (l === undefined) return { desired: o, adopted: false };
    return by === undefined
      ? { desired: o, live: l, adopted: false }
      : { desired: o, live: l, adopted: true, adoptedBy: by };
  });
  const orphans: Orphan[] = [];
  for (const group of byMarker.values()) {
    for (const l of group) {
      if (claimed.has(l)) continue;
      const duplicate = group.some((other) => claimed.has(other));
      orphans.push(
        duplicate
          ? { live: l, reason: 'a duplicate of the managed object', reasonCode: 'delete_because_duplicate' }
          : { live: l, reason: 'left the config', reasonCode: 'delete_because_removed_from_config' },
      );
    }
  }
  orphans.sort(
    (a, b) => compare(a.live.marker?.key ?? '', b.live.marker?.key ?? '') || compare(a.live.id, b.live.id),
  );
  const unmanaged = unmarked.filter((l) => !claimed.has(l));
  return { matches, orphans, notes, unmanaged };
}
