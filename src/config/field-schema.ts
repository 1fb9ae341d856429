/**
 * The JSON Schema of one value of the desired state, from its field descriptor: types, references,
 * secrets, nullability, read-only members, and the partial form an overlay's `patch:` takes.
 */
import {
  anyOf,
  descriptorOf,
  nestedObject,
  type Field,
  type FieldType,
  type Fields,
  type RefTarget,
} from '../resources/index.js';
import { namePattern, readOnlyFields, writableFields } from './layout.js';

export type Schema = Record<string, unknown>;

/** The `$defs` entry every string value may be replaced with. */
export const sourceDef = 'source';

export const variableName = '^[A-Za-z_][A-Za-z0-9_]*$';

export function sourceSchema(): Schema {
  return {
    type: 'object',
    description:
      'Takes the string from elsewhere: `{env: NAME}` reads an environment variable, `{file: path}` reads a file relative to this YAML file (both then treated as sensitive), `{var: name}` takes a value of the environment being loaded (see `values`).',
    properties: {
      env: { type: 'string', pattern: variableName, description: 'Environment variable name.' },
      file: { type: 'string', minLength: 1, description: 'Path of a file, relative to this YAML file.' },
      var: { type: 'string', pattern: namePattern, description: 'Name of a value under `values`.' },
    },
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
  };
}

function refDescription(target: RefTarget): string {
  const kinds = target.kinds.map((k) => descriptorOf(k));
  const prefixes = kinds.flatMap((d) => (d.idPrefix ? [`${d.idPrefix}...`] : [])).join(', ');
  return `the name of ${anyOf(target.kinds)} in this config, or the id (${prefixes}) of one it does not manage`;
}

function typeSchema(type: FieldType): Schema {
  switch (type.type) {
    case 'string':
      return {
        type: ['string', 'object'],
        ...(type.minLength !== undefined ? { minLength: type.minLength } : {}),
        ...(type.maxChars !== undefined ? { maxLength: type.maxChars } : {}),
        if: { type: 'object' },
        then: { $ref: `#/$defs/${sourceDef}` },
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', minimum: type.min, maximum: type.max };
    case 'number':
      return {
        type: 'number',
        ...(type.min !== undefined ? { minimum: type.min } : {}),
        ...(type.max !== undefined ? { maximum: type.max } : {}),
      };
    case 'enum':
      return { enum: [...type.values] };
    case 'list':
      return { type: 'array', items: typeSchema(type.items) };
    case 'map':
      return {
        type: 'object',
        ...(type.keyRef ? { propertyNames: { minLength: 1 } } : {}),
        additionalProperties: typeSchema(type.values),
      };
    case 'object':
      return objectSchema(type.fields);
    case 'module':
      return objectSchema(type.module.fields);
    case 'ref':
      return type.many
        ? { type: 'array', items: { type: 'string', minLength: 1 } }
        : { type: 'string', minLength: 1 };
    case 'json':
      return {};
  }
}

function withNull(schema: Schema): Schema {
  if (Array.isArray(schema.enum))
    return schema.enum.includes(null) ? schema : { ...schema, enum: [...(schema.enum as unknown[]), null] };
  if (typeof schema.type === 'string')
    return schema.type === 'null' ? schema : { ...schema, type: [schema.type, 'null'] };
  if (Array.isArray(schema.type))
    return schema.type.includes('null')
      ? schema
      : { ...schema, type: [...(schema.type as string[]), 'null'] };
  return schema;
}

function fieldSchema(f: Field, partial = false): Schema {
  const base =
    partial && nestedObject(f.type) !== undefined ? partialOf(typeSchema(f.type)) : typeSchema(f.type);
  const refNote =
    f.type.type === 'ref'
      ? ` References ${refDescription(f.type.target)}.`
      : f.type.type === 'map' && f.type.keyRef
        ? ` Keys are ${refDescription(f.type.keyRef)}.`
        : '';
  const secretNote = f.secret ? ' Secret: prefer `{env: NAME}` or `{file: path}`.' : '';
  const schema = { description: `${f.description}${refNote}${secretNote}`, ...base };
  return f.nullable || partial ? withNull(schema) : schema;
}

/**
 * A schema for a JSON Merge Patch of values `schema` describes: nothing required, any member may
 * be `null` (removed), maps patched member by member.
 */
export function partialOf(schema: Schema): Schema {
  const { required: _required, oneOf: _oneOf, ...rest } = schema;
  const properties = rest.properties as Record<string, Schema> | undefined;
  if (properties === undefined) return rest;
  return {
    ...rest,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [
        name,
        p.readOnly === true ? p : withNull(p.type === 'object' ? partialOf(p) : p),
      ]),
    ),
  };
}

/** Read-only members are listed so that editors and the loader can say why they are refused. */
function readOnlySchema(f: Field): Schema {
  return { description: `Read-only: ${f.description} The service computes it.`, readOnly: true, not: {} };
}

function propertiesOf(fields: Fields): Schema {
  return {
    ...Object.fromEntries(Object.entries(writableFields(fields)).map(([n, f]) => [n, fieldSchema(f)])),
    ...Object.fromEntries(Object.entries(readOnlyFields(fields)).map(([n, f]) => [n, readOnlySchema(f)])),
  };
}

function requiredOf(fields: Fields): string[] {
  return Object.entries(writableFields(fields)).flatMap(([n, f]) => (f.required ? [n] : []));
}

export function objectSchema(fields: Fields, extra: Schema = {}, title?: string): Schema {
  const required = requiredOf(fields);
  return {
    ...(title !== undefined ? { description: title } : {}),
    type: 'object',
    properties: { ...propertiesOf(fields), ...extra },
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
