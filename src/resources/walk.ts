/**
 * The one walk over values shaped by field descriptors: into nested objects and modules, list
 * items and map values, with the path of each value. References, secrets, normalization, request
 * bodies, export and the emulator all descend through here, so a new nesting type is taught once.
 */
import { derivedOnce, namedFields } from './field-lists.js';
import type { FieldPath } from './state.js';
import type { Field, FieldType, Fields, Rule } from './types.js';
import { isPlainObject } from '../plain-object.js';

type Plain = Record<string, unknown>;

/** A value of described members: an `object` field or a module, alike for every walk. */
interface NestedObject {
  readonly fields: Fields;
  readonly rules: readonly Rule[];
}

const objectMembers = derivedOnce((type: Extract<FieldType, { type: 'object' }>): NestedObject => ({
  fields: type.fields,
  rules: type.rules ?? [],
}));

/** The described members of a value of `type`, when it is an object or a module. */
export function nestedObject(type: FieldType | undefined): NestedObject | undefined {
  if (type?.type === 'object') return objectMembers(type);
  if (type?.type === 'module') return type.module;
  return undefined;
}

/** The fields of a value of `type`, when it is an object or a module. */
export function nestedFields(type: FieldType | undefined): Fields | undefined {
  return nestedObject(type)?.fields;
}

type ListType = Extract<FieldType, { type: 'list' }>;
type MapType = Extract<FieldType, { type: 'map' }>;

/** What a walk does where; a position it has no hook for keeps its value. */
export interface ValueMapper {
  /** A nested object or module (usually: walk its members). */
  readonly object: (nested: NestedObject, value: Plain, path: FieldPath) => unknown;
  /** A value that does not nest: a string, a reference, a number, JSON. */
  readonly leaf?: (type: FieldType, value: unknown, path: FieldPath) => unknown;
  /** A list once its items are mapped (sorting an unordered one). */
  readonly list?: (type: ListType, items: unknown[]) => unknown;
  /** A map's key (a reference to rewrite, a header name to lower-case). */
  readonly key?: (type: MapType, key: string, path: FieldPath) => string;
}

/**
 * `value`, described by `type` and sitting at `path`, mapped through `mapper`: lists item by item
 * (path gains the index), maps value by value (path gains the key). `null`, `undefined` and values
 * not shaped as their type says are returned as they are: validation reports those, not a walk.
 */
export function mapValue(
  type: FieldType,
  value: unknown,
  mapper: ValueMapper,
  path: FieldPath = [],
): unknown {
  if (value === null || value === undefined) return value;
  const nested = nestedObject(type);
  if (nested !== undefined) return isPlainObject(value) ? mapper.object(nested, value, path) : value;
  switch (type.type) {
    case 'list':
      return Array.isArray(value) ? mapItems(type, value, mapper, path) : value;
    case 'map':
      return isPlainObject(value) ? mapEntries(type, value, mapper, path) : value;
    default:
      return mapper.leaf === undefined ? value : mapper.leaf(type, value, path);
  }
}

function mapItems(type: ListType, value: readonly unknown[], mapper: ValueMapper, path: FieldPath): unknown {
  const items = value.map((item, i) => mapValue(type.items, item, mapper, [...path, i]));
  return mapper.list === undefined ? items : mapper.list(type, items);
}

function mapEntries(type: MapType, value: Plain, mapper: ValueMapper, path: FieldPath): Plain {
  const { key } = mapper;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      key === undefined ? k : key(type, k, [...path, k]),
      mapValue(type.values, v, mapper, [...path, k]),
    ]),
  );
}

/** A described member set in some values, and where. */
interface FieldSite {
  readonly field: Field;
  readonly value: unknown;
  readonly path: FieldPath;
}

/**
 * Calls `visit` for every described member set (not null) in `values`, in descriptor order, at
 * any depth: inside nested objects and modules, also as list items and map values. `visit`
 * returning false keeps the walk out of that member (it was what the caller looked for).
 */
export function visitFields(
  fields: Fields,
  values: Readonly<Plain>,
  visit: (site: FieldSite) => boolean | void,
  path: FieldPath = [],
): void {
  const descend: ValueMapper = {
    object: (nested, value, at) => visitFields(nested.fields, value, visit, at),
  };
  for (const { name, field } of namedFields(fields)) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    if (value === null || value === undefined) continue;
    const at = [...path, name];
    if (visit({ field, value, path: at }) !== false) mapValue(field.type, value, descend, at);
  }
}
