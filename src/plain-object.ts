/** The one test for a JSON object, and the one way to set its members, shared by every stage that reads parsed YAML or JSON. */

/** A JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Sets `name` as an own member of `out`: a key named `__proto__` read from a file is a member like
 * any other, where an assignment would set the object's prototype instead.
 */
export function setOwn(out: Record<string, unknown>, name: string, value: unknown): void {
  if (name in out)
    Object.defineProperty(out, name, { value, writable: true, enumerable: true, configurable: true });
  else out[name] = value;
}
