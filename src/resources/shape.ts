/**
 * Conversions between the shapes one object takes: the API record (response names, references as
 * `Ref` objects), request bodies (request names such as `ip_policy_ids`, references as ids), and
 * plain values (response names, references as bare ids). All driven by the field descriptors.
 */
import { namedFields, settableFields } from './field-lists.js';
import { sentExplicitly } from './normal-form.js';
import type { Field, FieldType, Fields } from './types.js';
import { mapValue, type ValueMapper } from './walk.js';
import { isPlainObject } from '../plain-object.js';

type Plain = Record<string, unknown>;

/** `{id, uri}` → `id`; anything else unchanged. */
export function refId(value: unknown): unknown {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : value;
}

/** Each conversion below applies itself again to the objects and modules nested at any depth. */
function convertNested(convert: (fields: Fields, v: Plain) => Plain): ValueMapper {
  return { object: (nested, value) => convert(nested.fields, value) };
}

/** A reference as plain values: `Ref`s (or what `toId` takes) as ids, one or many. */
export function plainReference(
  type: FieldType,
  value: unknown,
  toId: (ref: unknown) => unknown = refId,
): unknown {
  if (type.type !== 'ref') return value;
  return type.many && Array.isArray(value) ? value.map(toId) : toId(value);
}

const plainValues: ValueMapper = {
  ...convertNested(writableValues),
  leaf: (type, value) => plainReference(type, value),
};
const requestValues = convertNested(toRequestBody);
const responseValues = convertNested(fromRequestBody);
const defaultedValues = convertNested(withDefaults);
const explicitValues = convertNested(withExplicitDefaults);

/**
 * The writable part of an API record as plain values: read-only members dropped, `Ref`s turned
 * into ids. Write-only members come back as whatever the service returns (`""`), so callers compare
 * those by other means.
 */
export function writableValues(fields: Fields, record: Plain): Plain {
  const out: Plain = {};
  for (const { name, field: f } of settableFields(fields)) {
    if (!(name in record)) continue;
    out[name] = mapValue(f.type, record[name], plainValues);
  }
  return out;
}

/** Plain values → a request body: members renamed to their request names (`ip_policy_ids`). */
export function toRequestBody(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f: Field | undefined = fields[name];
    if (f === undefined) continue;
    out[f.writeAs ?? name] = mapValue(f.type, value, requestValues);
  }
  return out;
}

function isBlank(value: unknown): boolean {
  return value === null || value === '';
}

/**
 * A request body → plain values: members renamed back to their response names; a blank value of
 * a member whose blank means unset is left out, so that it takes its default.
 */
export function fromRequestBody(fields: Fields, body: Plain): Plain {
  const out: Plain = {};
  for (const { name, field: f, requestName: key } of namedFields(fields)) {
    if (!(key in body) || (f.blankIsUnset === true && isBlank(body[key]))) continue;
    out[name] = mapValue(f.type, body[key], responseValues);
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
  for (const { name, field: f } of settableFields(fields)) {
    if (name in values) {
      out[name] = mapValue(f.type, values[name], defaultedValues);
    } else if (f.default !== undefined) {
      // Most defaults are scalars; cloning one with structuredClone costs more than the whole walk.
      out[name] =
        typeof f.default === 'object' && f.default !== null ? structuredClone(f.default) : f.default;
    }
  }
  return out;
}

/**
 * Plain values with the defaults acctsync sends explicitly (`sentExplicitly`) filled in where
 * they are left out, at any depth of present objects and modules: what a create or a replace
 * sends, so the service's own default never decides a setting the plan showed.
 */
export function withExplicitDefaults(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const { name, field: f } of settableFields(fields)) {
    if (name in values) out[name] = mapValue(f.type, values[name], explicitValues);
    else if (sentExplicitly(f)) out[name] = f.default;
  }
  for (const name of Object.keys(values)) if (!(name in out)) out[name] = values[name];
  return out;
}
