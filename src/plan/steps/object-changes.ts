/**
 * The per-object diff: what differs between a paired live object and its desired state, in the
 * planner's normal forms, write-only values compared through the salted hashes of the marker.
 */
import {
  withoutPaths,
  type DesiredObject,
  type FieldPath,
  type KindDescriptor,
} from '../../resources/index.js';
import { secretMatches, type SecretHasher } from '../../resources/ownership/marker.js';
import { hashKey, writeOnlyValues } from '../../resources/ownership/secret-fields.js';
import { diffObject, isUnder, structuralDiff } from '../../plan-format/index.js';
import type { LiveObject } from '../../live/index.js';
import type { Paired } from '../match.js';
import { normalizeDesired, normalizeLive, resolvedFields, type ResolveRef } from '../normalize.js';
import { isPlainObject } from '../../plain-object.js';
import { unchangedRaw } from '../unchanged.js';

import { sensitiveMask, type FieldChange } from '../../plan-format/index.js';

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
  const parent = resolve(m.desired.parentKey, { kinds: [link.kind], readShape: 'id' });
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
