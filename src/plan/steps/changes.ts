/**
 * Each paired object's changes and the replaces they force. The per-object diff compares in the
 * planner's normal forms, write-only values through the salted hashes of the marker; a change that
 * cannot be made in place replaces the object, and a reference in an immutable field (a rule's
 * policy) makes its referrer a replace in turn, so replaces are found to a fixpoint. Before a change
 * enters the plan, its sensitive values are masked as `(sensitive)`.
 */
import {
  hashKey,
  isObjectKey,
  secretMatches,
  secretPaths,
  withoutPaths,
  writeOnlyValues,
  type DesiredObject,
  type FieldPath,
  type KindDescriptor,
  type SecretHasher,
  type KindRegistry,
} from '../../resources/index.js';
import { diffObject, sensitiveMask, structuralDiff, type FieldChange } from '../../plan-format/index.js';
import type { LiveObject } from '../../live/index.js';
import { isUnder } from '../../path-prefix.js';
import type { Match, Paired } from '../match.js';
import { normalizeDesired, normalizeLive, resolvedFields, type ResolveRef } from '../normalize.js';
import { byReference, desiredParentId } from '../parents.js';
import { isPlainObject } from '../../plain-object.js';
import { unchangedRaw } from '../unchanged.js';
import { isPublicMaterial, maskChange } from '../secrets.js';

/** How many configured top-level fields of a paired object already have their desired value. */
export function unchangedOf(
  d: KindDescriptor,
  o: DesiredObject,
  live: LiveObject,
  resolve: ResolveRef,
): number {
  return structuralDiff(d, normalizeLive(d, live, o), normalizeDesired(d, o, resolve)).unchanged;
}

/** A change of parent for children addressed through their parent's path, which cannot move. */
function parentMove(d: KindDescriptor, m: Paired, resolve: ResolveRef): FieldChange | undefined {
  const link = d.parent;
  if (link?.via !== 'path' || m.desired.parentKey === undefined) return undefined;
  const parent = desiredParentId(d, m.desired, byReference(resolve));
  if (parent === m.live.parentId) return undefined;
  return { path: [link.field], before: m.live.parentId, after: parent, forcesReplace: true };
}

/**
 * Changes of the write-only values, which the API never returns: a value whose salted hash the
 * marker keeps is compared with it, and a hash left without its value is a removal.
 */
function writeOnlyChanges(
  d: KindDescriptor,
  m: Paired,
  changes: readonly FieldChange[],
  hash: SecretHasher,
): FieldChange[] {
  const { salt, hashes = {} } = m.live.marker ?? {};
  const wanted = writeOnlyValues(d.fields, m.desired.fields);
  // Most objects have no write-only value and no hash: nothing to compare, nothing to allocate.
  if (wanted.length === 0 && m.live.marker?.hashes === undefined) return [];
  const out: FieldChange[] = [];
  // A path under a change already made (by the diff or by this loop) is written with it.
  const covered = (path: FieldPath) => [...changes, ...out].some((c) => isUnder(path, c.path));
  for (const { path, value } of wanted) {
    const known = hashes[hashKey(path)];
    if (salt !== undefined && known !== undefined && secretMatches(hash, salt, known, value)) continue;
    if (covered(path)) continue;
    const forcesReplace = d.fields[String(path[0])]?.write === 'immutable';
    out.push({
      path,
      ...(known === undefined ? {} : { before: sensitiveMask }),
      after: sensitiveMask,
      sensitive: true,
      ...(forcesReplace ? { forcesReplace } : {}),
    });
  }
  const wantedKeys = new Set(wanted.map((w) => hashKey(w.path)));
  for (const key of Object.keys(hashes)) {
    const path = key.split('.');
    if (!wantedKeys.has(key) && !covered(path)) out.push({ path, before: sensitiveMask, sensitive: true });
  }
  return out;
}

/**
 * An object set whole (a module switched on, a nested object added) shows as the config writes it,
 * as a create does: the service's defaults the config does not set stay out, and its secrets are
 * there for the masker to show as `(sensitive)` (the normal form drops write-only values).
 */
function asWritten(changes: FieldChange[], written: Readonly<Record<string, unknown>>): void {
  for (const [i, c] of changes.entries()) {
    if (!isPlainObject(c.after)) continue;
    let value: unknown = written;
    for (const part of c.path) value = isPlainObject(value) ? value[String(part)] : undefined;
    if (isPlainObject(value)) changes[i] = { ...c, after: value };
  }
}

/** The changes of a paired object, before masking. */
export function changesOf(
  d: KindDescriptor,
  m: Paired,
  resolve: ResolveRef,
  hash: SecretHasher,
): FieldChange[] {
  const o = m.desired;
  // Fields owned elsewhere leave both sides before the comparison, so no change can carry them.
  const ignored = o.ignore ?? [];
  const changes = unchangedRaw(d, m, resolve)
    ? []
    : diffObject(
        d,
        withoutPaths(normalizeLive(d, m.live, o), ignored),
        withoutPaths(normalizeDesired(d, o, resolve), ignored),
      );
  if (changes.some((c) => isPlainObject(c.after))) asWritten(changes, resolvedFields(d, o, resolve));
  const moved = parentMove(d, m, resolve);
  if (moved !== undefined) changes.push(moved);
  // An object being adopted has no hashes yet and the API never returns its write-only values, so
  // they are taken to be as configured (the adopt writes their hashes); rewriting them would
  // replace every adopted TLS certificate, whose private key cannot change in place.
  if (!m.adopted) changes.push(...writeOnlyChanges(d, m, changes, hash));
  return ignored.length === 0
    ? changes
    : changes.filter((c) => !ignored.some((path) => isUnder(c.path, path)));
}

/** Paths to mask in one object's changes: descriptor secrets on either side, and the loader's list. */
function sensitivePathsOf(d: KindDescriptor, o: DesiredObject, live: LiveObject | undefined): FieldPath[] {
  return [
    ...secretPaths(d.fields, o.fields),
    ...o.sensitive.filter((p) => !isPublicMaterial(d.fields, p)),
    ...(live ? secretPaths(d.fields, live.record) : []),
  ];
}

/** Masks a change of `o` (paired with `live` when it exists). */
export function changeMasker(
  d: KindDescriptor,
  o: DesiredObject,
  live: LiveObject | undefined,
): (c: FieldChange) => FieldChange {
  // Found on the first change: most objects have none, and the walks would be for nothing.
  let paths: FieldPath[] | undefined;
  return (c) => maskChange(c, (paths ??= sensitivePathsOf(d, o, live)));
}

export interface Replacements {
  /** Keys of the paired objects replaced: a change forces it, or their token is recaptured. */
  readonly replaced: ReadonlySet<string>;
  /** The live ids of the paired objects kept, by key: what references resolve to. */
  readonly keptIds: ReadonlyMap<string, string>;
  readonly resolve: ResolveRef;
  /** Each paired object's changes, before masking, as the final `resolve` sees them. */
  readonly changes: ReadonlyMap<Match, readonly FieldChange[]>;
}

export function findReplacements(
  paired: readonly Paired[],
  recaptured: ReadonlySet<string>,
  hash: SecretHasher,
  kinds: KindRegistry,
): Replacements {
  const replaced = new Set<string>(recaptured);
  for (;;) {
    const keptIds = new Map(
      paired.filter((m) => !replaced.has(m.desired.key)).map((m) => [m.desired.key, m.live.id]),
    );
    const resolve: ResolveRef = (ref) => (isObjectKey(ref) ? (keptIds.get(ref) ?? ref) : ref);
    const changes = new Map(
      paired.map((m) => [m, changesOf(kinds.descriptorOf(m.desired.kind), m, resolve, hash)]),
    );
    const before = replaced.size;
    // An observed object is never written: what differs is drift to report, not a replace.
    for (const [m, c] of changes)
      if (m.desired.observe !== true && c.some((x) => x.forcesReplace)) replaced.add(m.desired.key);
    if (replaced.size === before) return { replaced, keptIds, resolve, changes };
  }
}
