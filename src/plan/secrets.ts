/**
 * Secrets in a plan: where the write-only values are (compared through salted hashes in the
 * ownership marker, because the service never returns them), and masking every sensitive value
 * as `(sensitive)` before anything leaves the planner.
 */
import type { FieldPath, FieldType, Fields } from '../resources/index.js';
import { isPlainObject } from './canonical.js';
import { hashSecret } from './ownership.js';
import { sensitiveMask, type FieldChange } from './types.js';

/** A value found at a path of an object's values. */
export interface PathValue {
  readonly path: FieldPath;
  readonly value: unknown;
}

/** Paths (and values) of the fields matching `select`, at any depth, that are set in `values`. */
function findFields(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  select: (f: Fields[string]) => boolean,
  path: FieldPath = [],
): PathValue[] {
  const out: PathValue[] = [];
  for (const [name, f] of Object.entries(fields)) {
    const value = values[name];
    if (value === undefined || value === null) continue;
    if (select(f)) out.push({ path: [...path, name], value });
    else out.push(...findIn(f.type, value, select, [...path, name]));
  }
  return out;
}

function findIn(
  type: FieldType,
  value: unknown,
  select: (f: Fields[string]) => boolean,
  path: FieldPath,
): PathValue[] {
  if (type.type === 'object' && isPlainObject(value)) return findFields(type.fields, value, select, path);
  if (type.type === 'module' && isPlainObject(value))
    return findFields(type.module.fields, value, select, path);
  if (type.type === 'list' && Array.isArray(value))
    return value.flatMap((item, i) => findIn(type.items, item, select, [...path, i]));
  return [];
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

/** Salted hashes of the write-only values, keyed by dotted path; empty when there are none. */
export function writeOnlyHashes(salt: string, values: readonly PathValue[]): Record<string, string> {
  return Object.fromEntries(values.map((v) => [hashKey(v.path), hashSecret(salt, v.value)]));
}

function startsWith(path: FieldPath, prefix: FieldPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => String(p) === String(path[i]));
}

/** `value` with whatever sits at `inner` (a path relative to it) replaced by the mask. */
function maskInside(value: unknown, inner: FieldPath): unknown {
  const [head, ...rest] = inner;
  if (head === undefined) return value === undefined ? value : sensitiveMask;
  if (Array.isArray(value)) {
    const i = Number(head);
    return i in value
      ? (value as unknown[]).map((item, j) => (j === i ? maskInside(item, rest) : item))
      : value;
  }
  if (isPlainObject(value) && Object.hasOwn(value, String(head))) {
    return { ...value, [head]: maskInside(value[String(head)], rest) };
  }
  return value;
}

/** `change` with every sensitive value in it masked; `sensitive` set when any was. */
export function maskChange(change: FieldChange, sensitive: readonly FieldPath[]): FieldChange {
  let { before, after } = change;
  let masked = change.sensitive === true;
  for (const s of sensitive) {
    if (startsWith(change.path, s)) {
      before = before === undefined ? before : sensitiveMask;
      after = after === undefined ? after : sensitiveMask;
      masked = true;
    } else if (startsWith(s, change.path)) {
      const inner = s.slice(change.path.length);
      const b = maskInside(before, inner);
      const a = maskInside(after, inner);
      masked ||= b !== before || a !== after;
      before = b;
      after = a;
    }
  }
  return {
    path: change.path,
    ...(Object.hasOwn(change, 'before') ? { before } : {}),
    ...(Object.hasOwn(change, 'after') ? { after } : {}),
    ...(masked ? { sensitive: true } : {}),
    ...(change.forcesReplace ? { forcesReplace: true } : {}),
  };
}

/** Formats of public material: shown (summarised) in plans even when read from a file or the environment. */
const publicFormats: ReadonlySet<string> = new Set([
  'pem-certificate',
  'pem-certificate-chain',
  'ssh-public-key',
]);

/** True when `path` names a certificate or public key field: public keys are not secrets. */
export function isPublicMaterial(fields: Fields, path: FieldPath): boolean {
  let current: Fields | undefined = fields;
  let type: FieldType | undefined;
  for (const name of path) {
    type = current?.[String(name)]?.type;
    current =
      type?.type === 'object' ? type.fields : type?.type === 'module' ? type.module.fields : undefined;
  }
  return type?.type === 'string' && type.format !== undefined && publicFormats.has(type.format);
}
