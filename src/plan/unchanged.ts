/**
 * SECOND PATH (issue 46): kept for the wall time of a 10,000-object plan; the first path is the
 * diff of the normal forms, which decides every case this one is unsure of. Measured by `npm run bench -- --only second-paths`
 * (docs/performance.md, "Second paths").
 *
 * Whether a paired object already holds its desired values, read off the raw values before either
 * side is normalized: most paired objects are unchanged, and for them the comparison should cost
 * what a deep equality of the two costs. Only a sure answer is given. Each member is compared
 * where normalizing applies the same function to both sides (so equal raw values stay equal): a
 * member without references or nested objects, a reference resolved against its live id, the
 * user's metadata against the marker-stripped live metadata. Anything else that is set, or any
 * raw difference, leaves the answer to the diff of the normal forms (`normalize.ts`).
 */
import equal from 'fast-deep-equal';
import {
  mapReferenceValue,
  nestedObject,
  plainReference,
  serverFills,
  type Field,
  type FieldType,
  type KindDescriptor,
} from '../resources/index.js';
import type { Paired } from './match.js';
import type { ResolveRef } from './normalize.js';

/** How a member compares raw: as it is, as a reference, or only through its normal form. */
type Comparison = 'plain' | 'ref' | 'normalized';

/** A value whose normal form is the same function of it on both sides: no reference, no nesting. */
function isPlainType(type: FieldType): boolean {
  if (nestedObject(type) !== undefined || type.type === 'ref') return false;
  if (type.type === 'list') return isPlainType(type.items);
  if (type.type === 'map') return type.keyRef === undefined && isPlainType(type.values);
  return true;
}

const comparisons = new WeakMap<Field, Comparison>();

function comparisonOf(f: Field): Comparison {
  let found = comparisons.get(f);
  if (found === undefined) {
    found = f.type.type === 'ref' ? 'ref' : isPlainType(f.type) ? 'plain' : 'normalized';
    comparisons.set(f, found);
  }
  return found;
}

/** Both sides of one member as the diff compares them, a missing member and `null` alike. */
function same(desired: unknown, live: unknown): boolean {
  return equal(desired ?? undefined, live ?? undefined);
}

/** True when the diff of `m`'s normal forms is sure to find no change; false when unsure. */
export function unchangedRaw(d: KindDescriptor, m: Paired, resolve: ResolveRef): boolean {
  const set = m.desired.fields;
  const record = m.live.record;
  for (const name in d.fields) {
    const f = d.fields[name];
    // Read-only and write-only members leave both sides; write-only ones compare through hashes.
    if (f === undefined || f.write === 'read-only' || f.writeOnly === true) continue;
    const desiredSets = name in set;
    // A member the service fills, unset here, leaves both sides too.
    if (!desiredSets && serverFills(f, set)) continue;
    const desired = desiredSets ? set[name] : f.default;
    if (name === 'metadata') {
      if (typeof desired !== 'string' || desired !== m.live.userMetadata) return false;
      continue;
    }
    const live = name in record ? record[name] : undefined;
    const comparison = comparisonOf(f);
    if (comparison === 'plain') {
      if (!same(desired, live)) return false;
    } else if (comparison === 'ref') {
      if (!same(mapReferenceValue(f.type, desired, resolve), plainReference(f.type, live))) return false;
    } else if ((desired ?? undefined) !== undefined || (live ?? undefined) !== undefined) {
      return false;
    }
  }
  return true;
}
