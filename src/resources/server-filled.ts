import type { Field } from './types.js';

/**
 * Whether the service fills `f` in when the object's `values` leave it unset, so that an unset
 * value means "whatever the service chose" rather than the field's default. A conditional field
 * (a reserved domain's `certificate`) is server-filled only while its sibling is set.
 */
export function serverFills(f: Field | undefined, values: Readonly<Record<string, unknown>>): boolean {
  const rule = f?.serverFilled;
  if (rule === undefined) return false;
  if (rule === true) return true;
  const sibling = values[rule.whileSet];
  return sibling !== undefined && sibling !== null;
}

/**
 * Whether the service fills `f` in only because a sibling of `values` is set (a reserved domain's
 * `certificate` under its policy): what it filled in goes when that sibling does.
 */
export function filledWhileSet(f: Field | undefined, values: Readonly<Record<string, unknown>>): boolean {
  return typeof f?.serverFilled === 'object' && serverFills(f, values);
}
