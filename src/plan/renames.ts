/**
 * Renames: a live object of this scope that a desired object takes over under another key stays
 * the same object (same id, same token, same certificate); only its marker's key changes. The
 * pairs are found before any create or delete is decided, as Terraform applies `moved` blocks to
 * the prior state before it plans, so a rename can never show up as a delete and a create.
 */
import { UserError } from '../errors.js';
import { claimKeys, type DesiredMove, type DesiredObject, type KindRegistry } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';
import { markerSlot, unpaired, type LiveIndex, type Pairing } from './pairing.js';

/** The live objects of this scope marked with `key`, of any kind. */
function markedWith(index: LiveIndex, key: string): LiveObject[] {
  return [...index.byMarker.values()].flat().filter((l) => l.marker?.key === key);
}

function atMove(move: DesiredMove): string {
  return `${move.source.file}:${move.source.line}:${move.source.column}`;
}

/**
 * Pairs the target of each `moved:` entry with the live object its `from` names, and returns notes
 * on moves that found both names taken. A `from` no live object holds is a move already made.
 * @throws {UserError} when a move's live object is of another kind than its target (a backend
 *   variant the loader cannot see offline)
 */
export function pairByMove(
  sorted: readonly DesiredObject[],
  index: LiveIndex,
  pairing: Pairing,
  moves: readonly DesiredMove[],
): string[] {
  const byKey = new Map(sorted.map((o) => [o.key, o]));
  const notes: string[] = [];
  for (const move of moves) {
    const o = byKey.get(move.to);
    const group = index.byMarker.get(markerSlot(o?.kind ?? '', move.from)) ?? [];
    if (o === undefined) continue;
    const other = markedWith(index, move.from).find((l) => l.kind !== o.kind);
    if (group.length === 0 && other !== undefined) {
      throw new UserError(`moved: ${move.from} -> ${move.to} changes the object's kind`, {
        details: [
          `${atMove(move)}: ${move.from} (${other.id}) is a ${pairing.kinds.descriptorOf(other.kind).title}, ${move.to} a ${pairing.kinds.descriptorOf(o.kind).title}; a move keeps the object, which cannot change kind: remove the moved entry to replace it`,
        ],
      });
    }
    const [l] = group;
    if (l === undefined || pairing.groupTaken(group)) continue;
    if (pairing.found.has(o)) {
      notes.push(
        `moved ${move.from} -> ${move.to}: ${move.to} already exists (${pairing.found.get(o)?.id ?? ''}), so ${move.from} (${l.id}) is not moved but deleted as no longer in the config`,
      );
      continue;
    }
    pairing.rename(o, l, 'moved');
  }
  return notes;
}

/** Kinds whose objects the service proves identical by a unique value, with no parent to follow. */
function provesIdentity(kinds: KindRegistry, o: { readonly kind: DesiredObject['kind'] }): boolean {
  const d = kinds.descriptorOf(o.kind);
  return d.naturalKey?.claim !== undefined && d.parent === undefined;
}

/** This scope's marked live objects no desired object has taken, of the kinds whose unique values prove identity. */
function leftProvingIdentity(index: LiveIndex, pairing: Pairing): LiveObject[] {
  return [...index.byMarker.values()]
    .filter((group) => !pairing.groupTaken(group))
    .flat()
    .filter((l) => provesIdentity(pairing.kinds, l));
}

/**
 * Unpairs the desired objects whose key's live object is not theirs: it holds none of their unique
 * values, while exactly one live object of this scope whose key left the config holds some, and no
 * other desired object shares them. With `b` renamed to `c` and `a` to `b` in one change, the new
 * `b` is the object `a` was (the service proves it by its hostport, say), not the one `b` was: it
 * is left to {@link pairByUniqueValue} instead of keeping `b`'s object by key. When every key stays
 * (two entries swapping a value), keys pair as always.
 */
export function handOverKeys(sorted: readonly DesiredObject[], index: LiveIndex, pairing: Pairing): void {
  const { kinds } = pairing;
  const left = leftProvingIdentity(index, pairing);
  if (left.length === 0) return;
  const claimsOf = (kind: DesiredObject['kind'], values: Readonly<Record<string, unknown>>): string[] =>
    claimKeys(kinds.descriptorOf(kind), values, undefined);
  const byClaim = new Map<string, DesiredObject[]>();
  for (const o of sorted)
    if (o.pin === undefined && provesIdentity(kinds, o))
      for (const k of claimsOf(o.kind, o.fields)) byClaim.set(k, [...(byClaim.get(k) ?? []), o]);
  const holdersOf = (l: LiveObject): Set<DesiredObject> =>
    new Set(
      claimsOf(l.kind, l.record).flatMap((k) => (byClaim.get(k) ?? []).filter((o) => o.kind === l.kind)),
    );
  for (const l of left) {
    const [o, ...more] = holdersOf(l);
    if (o === undefined || more.length > 0) continue;
    const own = pairing.found.get(o);
    if (own?.marker?.key === o.key && !holdersOf(own).has(o)) pairing.unpair(o);
  }
}

/**
 * Pairs a desired object nothing paired with a live object of this scope whose key left the
 * config, when they are of the same kind and hold a value the service keeps unique in common
 * (a domain, an edge's hostport, an SSH key) and neither has another such candidate.
 */
export function pairByUniqueValue(
  sorted: readonly DesiredObject[],
  index: LiveIndex,
  pairing: Pairing,
): void {
  const { kinds } = pairing;
  const left = leftProvingIdentity(index, pairing);
  if (left.length === 0) return;
  const held = new Map(
    left.map((l) => [l, new Set(claimKeys(kinds.descriptorOf(l.kind), l.record, undefined))] as const),
  );
  const wanted = unpaired(sorted, pairing).filter((o) => o.pin === undefined && provesIdentity(kinds, o));
  const shares = (o: DesiredObject, l: LiveObject): boolean =>
    l.kind === o.kind &&
    claimKeys(kinds.descriptorOf(o.kind), o.fields, undefined).some((k) => held.get(l)?.has(k) === true);
  const candidates = new Map(wanted.map((o) => [o, left.filter((l) => shares(o, l))]));
  for (const [o, [only, ...more]] of candidates) {
    if (only === undefined || more.length > 0) continue;
    const rivals = wanted.filter((other) => candidates.get(other)?.includes(only) === true);
    if (rivals.length === 1) pairing.rename(o, only, 'unique value');
  }
}

/**
 * Pairs the nested items (routes, rules) of a renamed parent: the same item, under the parent's
 * new key, is the live child of the same parent object marked with the old key.
 */
export function pairByParent(sorted: readonly DesiredObject[], index: LiveIndex, pairing: Pairing): void {
  const byKey = new Map(sorted.map((o) => [o.key, o]));
  for (const o of unpaired(sorted, pairing)) {
    const parent = o.parentKey === undefined ? undefined : byKey.get(o.parentKey);
    const live = parent === undefined ? undefined : pairing.found.get(parent);
    const before = live?.marker?.key;
    if (o.parentKey === undefined || live === undefined || before === undefined || before === o.parentKey)
      continue;
    const group = index.byMarker.get(markerSlot(o.kind, before + o.key.slice(o.parentKey.length))) ?? [];
    const l = group.find((c) => c.parentId === live.id);
    if (l !== undefined && !pairing.groupTaken(group)) pairing.rename(o, l, 'parent');
  }
}
