/**
 * Field-level differences between a normalized live object and its normalized desired state:
 * one change per leaf that differs, descending into nested objects and modules present on both
 * sides, a whole-module change when a module is added or removed.
 */
import equal from 'fast-deep-equal';
import { nestedFields, type FieldPath, type Fields, type KindDescriptor } from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import type { FieldChange } from './types.js';

type Plain = Readonly<Record<string, unknown>>;

function diffFields(fields: Fields, before: Plain, after: Plain, path: FieldPath): FieldChange[] {
  const out: FieldChange[] = [];
  for (const [name, f] of Object.entries(fields)) {
    if (!(name in before) && !(name in after)) continue;
    const b = before[name];
    const a = after[name];
    if (equal(b, a)) continue;
    const at = [...path, name];
    const nested = nestedFields(f.type);
    if (nested && isPlainObject(b) && isPlainObject(a)) {
      out.push(...diffFields(nested, b, a, at));
    } else if (f.type.type === 'module') {
      // A module is added or removed as a whole: no `before` when added, no `after` when removed.
      out.push({ path: at, ...(b == null ? {} : { before: b }), ...(a == null ? {} : { after: a }) });
    } else {
      out.push({ path: at, before: b, after: a });
    }
  }
  return out;
}

/** The changes turning `live` into `desired`; immutable top-level fields are marked `forcesReplace`. */
export function diffObject(d: KindDescriptor, live: Plain, desired: Plain): FieldChange[] {
  return diffFields(d.fields, live, desired, []).map((c) =>
    d.fields[String(c.path[0])]?.write === 'immutable' ? { ...c, forcesReplace: true } : c,
  );
}

/** True when `path` is `prefix` or lies under it. */
export function isUnder(path: FieldPath, prefix: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => String(p) === String(path[i]));
}
