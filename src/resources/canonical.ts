/**
 * Canonical forms, so that two values the service treats as the same compare equal: each string
 * format's normal form (`normal-form.ts`: the canonical CIDR, an SSH key's identity, a
 * PEM's decoded content), lower-cased header names, unordered lists sorted, JSON metadata with
 * sorted members, and no member the service ignores. Both sides of a diff go through the same
 * functions, driven by the field descriptors.
 */
import { compare } from '../compare.js';
import { normalString } from './normal-form.js';
import type { Fields } from './types.js';
import { mapValue, type ValueMapper } from './walk.js';
import { isPlainObject } from '../plain-object.js';

type Plain = Record<string, unknown>;

/** JSON with object members sorted: equal values give equal strings, whatever the member order. */
export function canonicalJson(value: unknown): string {
  const keys = new Set<string>();
  // Given every member name, sorted, `JSON.stringify` writes each object's members in that order
  // without a sorted copy of the value. Names it would order otherwise (integer-like names come
  // first in an object's own order) and values that are not plain JSON take the copy.
  if (!collectKeys(value, keys)) return JSON.stringify(sortMembers(value));
  return JSON.stringify(value, [...keys].sort(compare));
}

/** Adds every member name in `value` to `keys`; false when the sorted names cannot stand for a copy. */
function collectKeys(value: unknown, keys: Set<string>): boolean {
  if (Array.isArray(value)) return value.every((item) => collectKeys(item, keys));
  if (value === null || typeof value !== 'object') return true;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (key === '__proto__' || key === 'toJSON' || /^[0-9]/.test(key)) return false;
    keys.add(key);
    if (!collectKeys((value as Record<string, unknown>)[key], keys)) return false;
  }
  return true;
}

function sortMembers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortMembers);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort(compare)
      .map((k) => [k, sortMembers(value[k])]),
  );
}

/**
 * Every member of `values` in its canonical form (members without a descriptor are kept as is); a
 * member the service ignores is left out, so it never differs.
 */
export function canonicalValues(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    if (f?.serviceIgnores === true) continue;
    out[name] = f === undefined ? value : mapValue(f.type, value, canonical);
  }
  return out;
}

/** An unordered list in one order: sorting by canonical JSON orders strings and objects alike. */
function sortedItems(items: readonly unknown[]): unknown[] {
  return items
    .map((item) => [canonicalJson(item), item] as const)
    .sort(([a], [b]) => compare(a, b))
    .map(([, item]) => item);
}

const canonical: ValueMapper = {
  object: (nested, value) => canonicalValues(nested.fields, value),
  leaf: normalString,
  list: (type, items) => (type.ordered ? items : sortedItems(items)),
  key: (type, key) => (type.lowerCaseKeys ? key.toLowerCase() : key),
};

/**
 * User metadata in canonical form: JSON objects with sorted members (the marker is written with
 * the user's members in any order), anything else verbatim.
 */
export function canonicalMetadata(user: string): string {
  // Most metadata is empty or plain text: skip the parse (and its exception) unless it can be an object.
  if (!user.trimStart().startsWith('{')) return user;
  try {
    const parsed: unknown = JSON.parse(user);
    return isPlainObject(parsed) ? canonicalJson(parsed) : user;
  } catch {
    return user;
  }
}
