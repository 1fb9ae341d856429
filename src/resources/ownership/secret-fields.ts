/**
 * Where the write-only and secret fields of an object's values are, at any depth, and the salted
 * hashes of the write-only ones the ownership marker keeps (the service never returns them).
 */
import type { FieldPath } from '../state.js';
import type { Field, FieldType, Fields } from '../types.js';
import { nestedFields, visitFields } from '../walk.js';
import { secretMatches, type SecretHasher } from './marker.js';

/** A value found at a path of an object's values. */
interface PathValue {
  readonly path: FieldPath;
  readonly value: unknown;
}

type Select = (f: Field) => boolean;

/** Whether a value of `type` can hold a field matching `select`, at any depth. */
function typeHolds(type: FieldType, select: Select, seen: Set<Fields>): boolean {
  const nested = nestedFields(type);
  if (nested !== undefined) return fieldsHold(nested, select, seen);
  if (type.type === 'list') return typeHolds(type.items, select, seen);
  if (type.type === 'map') return typeHolds(type.values, select, seen);
  return false;
}

function fieldsHold(fields: Fields, select: Select, seen: Set<Fields>): boolean {
  if (seen.has(fields)) return false;
  seen.add(fields);
  return Object.values(fields).some((f) => select(f) || typeHolds(f.type, select, seen));
}

/** Per selector, per field set: most kinds hold no write-only or secret field, and need no walk. */
const holding = new WeakMap<Select, WeakMap<Fields, boolean>>();

function holds(fields: Fields, select: Select): boolean {
  let bySelect = holding.get(select);
  if (bySelect === undefined) holding.set(select, (bySelect = new WeakMap()));
  let answer = bySelect.get(fields);
  if (answer === undefined) bySelect.set(fields, (answer = fieldsHold(fields, select, new Set())));
  return answer;
}

/** `typeHolds` through the per-field-set cache. */
function canHold(type: FieldType, select: Select): boolean {
  const nested = nestedFields(type);
  if (nested !== undefined) return holds(nested, select);
  if (type.type === 'list') return canHold(type.items, select);
  if (type.type === 'map') return canHold(type.values, select);
  return false;
}

/** Paths (and values) of the fields matching `select`, at any depth, that are set in `values`. */
export function findFields(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  select: Select,
): PathValue[] {
  const found: PathValue[] = [];
  if (!holds(fields, select)) return found;
  visitFields(fields, values, ({ field, value, path }) => {
    // Down only where a match can be: most members hold none.
    if (!select(field)) return canHold(field.type, select);
    found.push({ path, value });
    return false;
  });
  return found;
}

const isWriteOnly: Select = (f) => f.writeOnly === true;
const isSecret: Select = (f) => f.secret === true;
/** A descriptor secret or a write-only field: its value is never shown. One function, so `holds` caches it. */
export const isSensitiveField: Select = (f) => isSecret(f) || isWriteOnly(f);

/** Write-only values set in `values` (empty strings count as unset: that is how the service echoes them). */
export function writeOnlyValues(fields: Fields, values: Readonly<Record<string, unknown>>): PathValue[] {
  return findFields(fields, values, isWriteOnly).filter((p) => p.value !== '');
}

/** Paths of descriptor secrets set in `values`. */
export function secretPaths(fields: Fields, values: Readonly<Record<string, unknown>>): FieldPath[] {
  return findFields(fields, values, isSecret).map((p) => p.path);
}

/** The marker's name for a path: dotted (`oidc.client_secret`). */
export function hashKey(path: FieldPath): string {
  return path.join('.');
}

/**
 * Salted hashes of the write-only values, keyed by dotted path; empty when there are none. A hash
 * in `kept` that still matches its value is kept as it is (an earlier format is upgraded only when
 * the object is written anyway, not by a write of its own).
 */
export function writeOnlyHashes(
  salt: string,
  values: readonly PathValue[],
  hash: SecretHasher,
  kept: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return Object.fromEntries(
    values.map((v) => {
      const known = kept[hashKey(v.path)];
      const keep = known !== undefined && secretMatches(hash, salt, known, v.value);
      return [hashKey(v.path), keep ? known : hash(salt, v.value)];
    }),
  );
}
