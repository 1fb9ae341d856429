/** Field tables without a prototype, for every descriptor: built in or registered. */
import type { Field, FieldType, Fields } from './types.js';

/**
 * A copy of a field table, and of every table nested in it, without a prototype: callers look
 * fields up by names that come from user input (`fields[name]`), and `constructor` or `__proto__`
 * must then be unknown fields, not members of `Object.prototype`.
 */
export function ownFields(fields: Fields): Fields {
  const out = Object.create(null) as Record<string, Field>;
  for (const [name, f] of Object.entries(fields)) out[name] = { ...f, type: ownType(f.type) };
  return out;
}

function ownType(type: FieldType): FieldType {
  switch (type.type) {
    case 'object':
      return { ...type, fields: ownFields(type.fields) };
    case 'module':
      return { ...type, module: { ...type.module, fields: ownFields(type.module.fields) } };
    case 'list':
      return { ...type, items: ownType(type.items) };
    case 'map':
      return { ...type, values: ownType(type.values) };
    default:
      return type;
  }
}

/** The fields of `fields` that `keep` accepts, as a table without a prototype like the others. */
export function pickFields(fields: Fields, keep: (name: string, f: Field) => boolean): Fields {
  const out = Object.create(null) as Record<string, Field>;
  for (const [name, f] of Object.entries(fields)) if (keep(name, f)) out[name] = f;
  return out;
}
