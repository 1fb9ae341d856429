/**
 * What pairing desired objects with live ones works on: the live objects indexed as pairing sees
 * them, and the pairs found so far (each live object taken at most once).
 */
import type { DesiredObject, KindRegistry } from '../resources/index.js';
import type { LiveObject, LiveState } from '../live/index.js';

/** How a desired object came to be paired with a live object of this scope marked with another key. */
export type RenameCause = 'moved' | 'unique value' | 'parent' | 'pin';

/**
 * Why an unmarked object is taken over (`--adopt`): its `id:` pin, its natural key, (for a kind
 * without one) its description, or its nested items' markers.
 */
export type AdoptCause = 'pin' | 'natural key' | 'description' | 'marked children';

/** The live objects as pairing sees them: this scope's marked ones by kind and key, and the unmarked. */
export interface LiveIndex {
  readonly byMarker: ReadonlyMap<string, readonly LiveObject[]>;
  readonly unmarked: readonly LiveObject[];
  readonly byId: ReadonlyMap<string, LiveObject>;
  /** Every live object, whoever manages it (observed entries pair with any). */
  readonly all: readonly LiveObject[];
}

/** The slot of `byMarker` for a kind and key. */
export const markerSlot = (kind: string, key: string): string => `${kind} ${key}`;

export function indexLive(live: LiveState, scope: string): LiveIndex {
  const byMarker = new Map<string, LiveObject[]>();
  const unmarked: LiveObject[] = [];
  for (const o of live.objects) {
    if (o.marker === undefined) unmarked.push(o);
    else if (o.marker.scope === scope) {
      const k = markerSlot(o.kind, o.marker.key);
      byMarker.set(k, [...(byMarker.get(k) ?? []), o]);
    }
  }
  return { byMarker, unmarked, byId: new Map(live.objects.map((l) => [l.id, l])), all: live.objects };
}

/** The pairs found so far, each live object taken at most once. */

export class Pairing {
  /** The kinds the objects are described by. */
  readonly kinds: KindRegistry;
  readonly found = new Map<DesiredObject, LiveObject>();
  readonly claimed = new Set<LiveObject>();
  /** Live ids by desired key: what a child's parent reference resolves to. */
  readonly matchedIds = new Map<string, string>();
  readonly adopted = new Map<DesiredObject, AdoptCause>();
  readonly pinnedBy = new Map<LiveObject, string>();
  readonly renamedBy = new Map<DesiredObject, RenameCause>();

  constructor(kinds: KindRegistry) {
    this.kinds = kinds;
  }

  pair(o: DesiredObject, l: LiveObject, adoptedBy?: AdoptCause): void {
    this.found.set(o, l);
    this.claimed.add(l);
    this.matchedIds.set(o.key, l.id);
    if (adoptedBy !== undefined) this.adopted.set(o, adoptedBy);
  }

  /** Pairs `o` with a live object of this scope marked with another key. */
  rename(o: DesiredObject, l: LiveObject, cause: RenameCause): void {
    this.pair(o, l);
    this.renamedBy.set(o, cause);
  }

  /** Undoes a pair by marker that a rename proves wrong (`handOverKeys`). */
  unpair(o: DesiredObject): void {
    const l = this.found.get(o);
    if (l === undefined) return;
    this.found.delete(o);
    this.claimed.delete(l);
    this.matchedIds.delete(o.key);
  }

  /** Whether any live object of this marker group is taken (the others are its duplicates). */
  groupTaken(group: readonly LiveObject[]): boolean {
    return group.some((l) => this.claimed.has(l));
  }
}

/** The desired objects not paired yet, in `sorted` order. */
export function unpaired(sorted: readonly DesiredObject[], pairing: Pairing): DesiredObject[] {
  return sorted.filter((o) => !pairing.found.has(o));
}
