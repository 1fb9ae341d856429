/** Finds the ids a stored object references, through the descriptors' one value walk. */
import { fieldsMayReference, findReferences, writableValues, type Fields } from '../resources/index.js';

/** A referenced id and where it sits in the values (response names). */
interface FoundReference {
  readonly id: string;
  readonly path: readonly (string | number)[];
}

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
