/** Finds the ids a stored object references, through the descriptors' one value walk. */
import {
  derivedOnce,
  findReferences,
  writableValues,
  type FieldType,
  type Fields,
} from '../resources/index.js';

/** A referenced id and where it sits in the values (response names). */
interface FoundReference {
  readonly id: string;
  readonly path: readonly (string | number)[];
}

function typeMayReference(type: FieldType): boolean {
  switch (type.type) {
    case 'ref':
      return true;
    case 'list':
      return typeMayReference(type.items);
    case 'map':
      return type.keyRef !== undefined || typeMayReference(type.values);
    case 'object':
      return fieldsMayReference(type.fields);
    case 'module':
      return fieldsMayReference(type.module.fields);
    default:
      return false;
  }
}

/** Whether a value of these fields can hold a reference at any depth (most kinds' cannot). */
const fieldsMayReference = derivedOnce((fields: Fields): boolean =>
  Object.values(fields).some((f) => typeMayReference(f.type)),
);

/** References written by the user (read-only members such as a session's credential are the service's). */
export function collectReferences(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
): FoundReference[] {
  if (!fieldsMayReference(fields)) return [];
  return findReferences(fields, writableValues(fields, values)).map(({ ref, path }) => ({
    id: ref,
    path,
  }));
}
