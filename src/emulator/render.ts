/** Stored values → the API's response shape, driven by the field descriptors. */
import type { FieldType, Fields } from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';

/** What rendering needs from the account: the address of a referenced object. */
export interface UriResolver {
  uriOf(id: string): string;
}

/**
 * Every member of `fields`, in descriptor order. Unset members come back as their default or null
 * (the spec: unset object-valued members are null). Write-only members are not echoed: a top-level
 * one (a private key) is left out, a nested secret (client_secret) comes back as `""`.
 */
export function renderFields(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  resolver: UriResolver,
  topLevel: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.writeOnly) {
      if (!topLevel) out[name] = '';
      continue;
    }
    const value = Object.hasOwn(values, name) ? values[name] : f.default;
    out[name] = value === undefined ? null : renderValue(f.type, value, resolver);
  }
  return out;
}

function refShape(type: Extract<FieldType, { type: 'ref' }>, id: unknown, resolver: UriResolver): unknown {
  if (typeof id !== 'string' || type.target.readShape === 'id') return id;
  return { id, uri: resolver.uriOf(id) };
}

function renderValue(type: FieldType, value: unknown, resolver: UriResolver): unknown {
  if (value === null) return null;
  switch (type.type) {
    case 'ref':
      return type.many && Array.isArray(value)
        ? value.map((id) => refShape(type, id, resolver))
        : refShape(type, value, resolver);
    case 'list':
      return Array.isArray(value) ? value.map((item) => renderValue(type.items, item, resolver)) : value;
    case 'map':
      return isPlainObject(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, renderValue(type.values, v, resolver)]),
          )
        : value;
    case 'object':
      return isPlainObject(value) ? renderFields(type.fields, value, resolver, false) : value;
    case 'module':
      return isPlainObject(value) ? renderFields(type.module.fields, value, resolver, false) : value;
    default:
      return value;
  }
}
