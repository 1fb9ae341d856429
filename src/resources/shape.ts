/**
 * Conversions between the shapes one object takes: the API record (response names, references as
 * `Ref` objects), request bodies (request names such as `ip_policy_ids`, references as ids), and
 * plain values (response names, references as bare ids). All driven by the field descriptors.
 */
import type { Field, FieldType, Fields, RefTarget } from './types.js';
import { isPlainObject } from '../plain-object.js';

type Plain = Record<string, unknown>;

/** `{id, uri}` → `id`; anything else unchanged. */
function refId(value: unknown): unknown {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : value;
}

function mapValue(type: FieldType, value: unknown, convert: (fields: Fields, v: Plain) => Plain): unknown {
  if (value === null || value === undefined) return value;
  switch (type.type) {
    case 'object':
      return isPlainObject(value) ? convert(type.fields, value) : value;
    case 'module':
      return isPlainObject(value) ? convert(type.module.fields, value) : value;
    case 'list':
      return Array.isArray(value) ? value.map((item) => mapValue(type.items, item, convert)) : value;
    case 'map':
      return isPlainObject(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapValue(type.values, v, convert)]))
        : value;
    default:
      return value;
  }
}

/**
 * The writable part of an API record as plain values: read-only members dropped, `Ref`s turned
 * into ids. Write-only members come back as whatever the service returns (`""`), so callers compare
 * those by other means.
 */
export function writableValues(fields: Fields, record: Plain): Plain {
  const out: Plain = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.write === 'read-only' || !(name in record)) continue;
    out[name] = plainValue(f.type, record[name]);
  }
  return out;
}

function plainValue(type: FieldType, value: unknown): unknown {
  if (type.type === 'ref') return type.many && Array.isArray(value) ? value.map(refId) : refId(value);
  return mapValue(type, value, writableValues);
}

/** Plain values → a request body: members renamed to their request names (`ip_policy_ids`). */
export function toRequestBody(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f: Field | undefined = fields[name];
    if (f === undefined) continue;
    out[f.writeAs ?? name] = mapValue(f.type, value, toRequestBody);
  }
  return out;
}

/** A request body → plain values: members renamed back to their response names. */
export function fromRequestBody(fields: Fields, body: Plain): Plain {
  const out: Plain = {};
  for (const [name, f] of Object.entries(fields)) {
    const key = f.writeAs ?? name;
    if (key in body) out[name] = mapValue(f.type, body[key], fromRequestBody);
  }
  return out;
}

/**
 * Plain values with every writable member the service would return filled in: defaults for
 * omitted members, recursively inside present objects and modules. What a record looks like
 * right after the object was created from `values`.
 */
export function withDefaults(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.write === 'read-only') continue;
    if (name in values) {
      out[name] = mapValue(f.type, values[name], withDefaults);
    } else if (f.default !== undefined) {
      out[name] = structuredClone(f.default);
    }
  }
  return out;
}

/**
 * Rewrites every reference inside plain values (single, list, and map keys that are references),
 * leaving everything else as is. The planner maps desired keys to live ids with it; the applier
 * maps keys of objects it just created to their new ids.
 */
export function mapReferences(
  fields: Fields,
  values: Plain,
  rewrite: (ref: string, target: RefTarget) => string,
): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    out[name] = f === undefined ? value : mapReferenceValue(f.type, value, rewrite);
  }
  return out;
}

export function mapReferenceValue(
  type: FieldType,
  value: unknown,
  rewrite: (ref: string, target: RefTarget) => string,
): unknown {
  if (value === null || value === undefined) return value;
  switch (type.type) {
    case 'ref':
      if (type.many)
        return Array.isArray(value)
          ? (value as unknown[]).map((v) => (typeof v === 'string' ? rewrite(v, type.target) : v))
          : value;
      return typeof value === 'string' ? rewrite(value, type.target) : value;
    case 'map': {
      if (!isPlainObject(value)) return value;
      const keyRef = type.keyRef;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [
          keyRef ? rewrite(k, keyRef) : k,
          mapReferenceValue(type.values, v, rewrite),
        ]),
      );
    }
    case 'list':
      return Array.isArray(value)
        ? (value as unknown[]).map((v) => mapReferenceValue(type.items, v, rewrite))
        : value;
    case 'object':
      return isPlainObject(value) ? mapReferences(type.fields, value, rewrite) : value;
    case 'module':
      return isPlainObject(value) ? mapReferences(type.module.fields, value, rewrite) : value;
    default:
      return value;
  }
}
