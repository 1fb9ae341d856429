/**
 * Where the write-only and secret fields of an object's values are, at any depth, and the salted
 * hashes of the write-only ones the ownership marker keeps (the service never returns them).
 */
import type { Field, FieldPath, Fields } from '../index.js';
import { visitFields } from '../walk.js';
import { secretMatches, type SecretHasher } from './marker.js';

/** A value found at a path of an object's values. */
interface PathValue {
  readonly path: FieldPath;
  readonly value: unknown;
}

/** Paths (and values) of the fields matching `select`, at any depth, that are set in `values`. */
export function findFields(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  select: (f: Field) => boolean,
): PathValue[] {
  const found: PathValue[] = [];
  visitFields(fields, values, ({ field, value, path }) => {
    if (!select(field)) return true;
    found.push({ path, value });
    return false;
  });
  return found;
}

/** Write-only values set in `values` (empty strings count as unset: that is how the service echoes them). */
export function writeOnlyValues(fields: Fields, values: Readonly<Record<string, unknown>>): PathValue[] {
  return findFields(fields, values, (f) => f.writeOnly === true).filter((p) => p.value !== '');
}

/** Paths of descriptor secrets set in `values`. */
export function secretPaths(fields: Fields, values: Readonly<Record<string, unknown>>): FieldPath[] {
  return findFields(fields, values, (f) => f.secret === true).map((p) => p.path);
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
