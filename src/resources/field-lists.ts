/**
 * What the per-object walks (`validateBody`, `fromRequestBody`, `withDefaults`) read from a field
 * table, derived once per table. Tables are never changed once a descriptor holds them, and these
 * walks run for every request the emulator answers and every object the loader and planner see.
 */
import type { Field, Fields } from './types.js';

/** `derive` of a field table, computed on the first call for that table. */
export function perFieldTable<T>(derive: (fields: Fields) => T): (fields: Fields) => T {
  const derived = new WeakMap<Fields, T>();
  return (fields) => {
    let value = derived.get(fields);
    if (value === undefined) {
      value = derive(fields);
      derived.set(fields, value);
    }
    return value;
  };
}

interface NamedField {
  readonly name: string;
  readonly field: Field;
  /** The member's name in request bodies (`ip_policy_ids` for `ip_policies`). */
  readonly requestName: string;
}

/** Every field of the table, in its order. */
export const namedFields = perFieldTable((fields): readonly NamedField[] =>
  Object.entries(fields).map(([name, field]) => ({ name, field, requestName: field.writeAs ?? name })),
);

/** The fields a request or the desired state may set: all but the read-only ones. */
export const settableFields = perFieldTable((fields): readonly NamedField[] =>
  namedFields(fields).filter((f) => f.field.write !== 'read-only'),
);
