/**
 * References inside plain values (single, list, and map keys that are references), found and
 * rewritten through the one value walk. The loader resolves names with it, the planner maps keys
 * to live ids and orders by it, the applier maps new keys to ids, the emulator checks and indexes.
 */
import { derivedOnce } from './field-lists.js';
import type { FieldPath } from './state.js';
import type { FieldType, Fields, RefTarget } from './types.js';
import { mapValue, type ValueMapper } from './walk.js';

type Plain = Record<string, unknown>;

/** Where a reference is written: its path, and whether it is a map key rather than a value. */
interface ReferenceSite {
  readonly path: FieldPath;
  readonly atKey: boolean;
}

type RewriteReference = (ref: string, target: RefTarget, site: ReferenceSite) => string;

function referenceMapper(rewrite: RewriteReference): ValueMapper {
  const mapper: ValueMapper = {
    object: (nested, value, path) => mapMembers(nested.fields, value, mapper, path),
    leaf: (type, value, path) => {
      if (type.type !== 'ref') return value;
      const one = (v: unknown, at: FieldPath) =>
        typeof v === 'string' ? rewrite(v, type.target, { path: at, atKey: false }) : v;
      if (!type.many) return one(value, path);
      return Array.isArray(value) ? value.map((v, i) => one(v, [...path, i])) : value;
    },
    key: (type, key, path) =>
      type.keyRef === undefined ? key : rewrite(key, type.keyRef, { path, atKey: true }),
  };
  return mapper;
}

/**
 * `values` with every reference rewritten, everything else as it is (members without a field
 * too). `path` is where `values` sit, for the sites `rewrite` is told.
 */
export function mapReferences(
  fields: Fields,
  values: Readonly<Plain>,
  rewrite: RewriteReference,
  path: FieldPath = [],
): Plain {
  return mapMembers(fields, values, referenceMapper(rewrite), path);
}

function mapMembers(fields: Fields, values: Readonly<Plain>, mapper: ValueMapper, path: FieldPath): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    out[name] = f === undefined ? value : mapValue(f.type, value, mapper, [...path, name]);
  }
  return out;
}

/** One value of `type` with every reference in it rewritten. */
export function mapReferenceValue(
  type: FieldType,
  value: unknown,
  rewrite: RewriteReference,
  path: FieldPath = [],
): unknown {
  return mapValue(type, value, referenceMapper(rewrite), path);
}

/** A reference as written in plain values (a key or an id), what it may point at, and where. */
interface FoundReference extends ReferenceSite {
  readonly ref: string;
  readonly target: RefTarget;
}

/** Every reference inside plain values, in the order the values hold them. */
export function findReferences(fields: Fields, values: Readonly<Plain>): FoundReference[] {
  const found: FoundReference[] = [];
  mapReferences(fields, values, (ref, target, site) => {
    found.push({ ref, target, ...site });
    return ref;
  });
  return found;
}

function typeMayReference(type: FieldType): boolean {
  switch (type.type) {
    case 'ref':
      return true;
    case 'list':
      return typeMayReference(type.items);
    case 'map':
      return type.keyRef !== undefined || typeMayReference(type.values);
    case 'object':
      return fieldsMayReference(type.fields);
    case 'module':
      return fieldsMayReference(type.module.fields);
    default:
      return false;
  }
}

/** Whether a value of these fields can hold a reference at any depth (most kinds' cannot). */
export const fieldsMayReference = derivedOnce((fields: Fields): boolean =>
  Object.values(fields).some((f) => typeMayReference(f.type)),
);
