/**
 * A value as a message shows what was found: short strings and scalars as themselves, long strings
 * by their length, lists and objects by their kind.
 */

/** `objectNoun` names an object: the API calls it an object, the config a map. */
export function describeValue(value: unknown, objectNoun = 'an object'): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return objectNoun;
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : `"${value}"`;
  return `${typeof value} ${JSON.stringify(value) ?? typeof value}`;
}
