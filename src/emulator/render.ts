/** Stored values → the API's response shape, driven by the field descriptors. */
import {
  derivedOnce,
  mapValue,
  plainReference,
  type Field,
  type FieldType,
  type Fields,
} from '../resources/index.js';
import { omittedFromAnswer, type Answers } from './answers.js';

/** What rendering needs from the account: the address of a referenced object. */
export interface UriResolver {
  uriOf(id: string): string;
}

/**
 * Every member of `fields`, in descriptor order. Unset members come back as their default or null
 * (the spec: unset object-valued members are null). Write-only members are not echoed: a top-level
 * one (a private key) is left out, a nested secret (client_secret) comes back as `""`. An object's
 * own members (`topLevel` says how it answers) leave out an empty one the vendor's service omits.
 */
export function renderFields(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  resolver: UriResolver,
  topLevel: Answers | false,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { name, f, asStored } of membersOf(fields)) {
    if (f.writeOnly) {
      if (topLevel === false) out[name] = '';
      continue;
    }
    const value = Object.hasOwn(values, name) ? values[name] : f.default;
    if (topLevel === 'vendor' && omittedFromAnswer(f, value)) continue;
    out[name] = value === undefined ? null : asStored ? value : renderValue(f.type, value, resolver);
  }
  return out;
}

/** Types whose values are answered as stored: nothing nests in them and they reference nothing. */
const leafTypes: ReadonlySet<FieldType['type']> = new Set([
  'string',
  'boolean',
  'integer',
  'number',
  'enum',
  'json',
]);

/** The members of `fields` in descriptor order, each marked when it renders as stored. */
const membersOf = derivedOnce((fields: Fields) =>
  Object.entries(fields).map(([name, f]: [string, Field]) => ({
    name,
    f,
    asStored: leafTypes.has(f.type.type),
  })),
);

function refShape(type: Extract<FieldType, { type: 'ref' }>, id: unknown, resolver: UriResolver): unknown {
  if (typeof id !== 'string' || type.target.readShape === 'id') return id;
  return { id, uri: resolver.uriOf(id) };
}

function renderValue(type: FieldType, value: unknown, resolver: UriResolver): unknown {
  return mapValue(type, value, {
    object: (nested, v) => renderFields(nested.fields, v, resolver, false),
    leaf: (t, v) => plainReference(t, v, (id) => (t.type === 'ref' ? refShape(t, id, resolver) : id)),
  });
}
