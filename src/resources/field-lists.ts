/**
 * What the per-object walks (`validateBody`, `fromRequestBody`, `withDefaults`, `mapValue`) read
 * from a descriptor, derived once per field table, field or type. Descriptors are never changed
 * once built, and these walks run for every request the emulator answers and every object the
 * loader and planner see.
 */
import type { Field, Fields } from './types.js';

/**
 * `derive` of a descriptor's part (a field table, a field, a type), computed on the first call for
 * it; a result of `undefined` is kept too (boxed), so a part without the thing is not derived again.
 */
export function derivedOnce<K extends object, T>(derive: (part: K) => T): (part: K) => T {
  const derived = new WeakMap<K, { readonly value: T }>();
  return (part) => {
    let entry = derived.get(part);
    if (entry === undefined) derived.set(part, (entry = { value: derive(part) }));
    return entry.value;
  };
}

interface NamedField {
  readonly name: string;
  readonly field: Field;
  /** The member's name in request bodies (`ip_policy_ids` for `ip_policies`). */
  readonly requestName: string;
}

/** Every field of the table, in its order. */
export const namedFields = derivedOnce((fields: Fields): readonly NamedField[] =>
  Object.entries(fields).map(([name, field]) => ({ name, field, requestName: field.writeAs ?? name })),
);

/** The fields a request or the desired state may set: all but the read-only ones. */
export const settableFields = derivedOnce((fields: Fields): readonly NamedField[] =>
  namedFields(fields).filter((f) => f.field.write !== 'read-only'),
);
