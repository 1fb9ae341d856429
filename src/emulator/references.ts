/** Finds the ids a stored object references, walking its descriptor: refs, map keys, modules, lists. */
import type { FieldType, Fields } from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';

/** A referenced id and where it sits in the values (response names). */
export interface FoundReference {
  readonly id: string;
  readonly path: readonly (string | number)[];
}

/** References written by the user (read-only members such as a session's credential are the service's). */
export function collectReferences(
  fields: Fields,
  values: Readonly<Record<string, unknown>>,
  path: readonly (string | number)[] = [],
): FoundReference[] {
  const out: FoundReference[] = [];
  for (const [name, f] of Object.entries(fields)) {
    if (f.write === 'read-only' || !Object.hasOwn(values, name)) continue;
    walk(f.type, values[name], [...path, name], out);
  }
  return out;
}

function walk(type: FieldType, value: unknown, path: (string | number)[], out: FoundReference[]): void {
  if (value === null || value === undefined) return;
  switch (type.type) {
    case 'ref':
      if (typeof value === 'string') out.push({ id: value, path });
      else if (Array.isArray(value))
        value.forEach((id, i) => {
          if (typeof id === 'string') out.push({ id, path: [...path, i] });
        });
      return;
    case 'map':
      if (!isPlainObject(value)) return;
      for (const [k, v] of Object.entries(value)) {
        if (type.keyRef) out.push({ id: k, path: [...path, k] });
        walk(type.values, v, [...path, k], out);
      }
      return;
    case 'list':
      if (Array.isArray(value)) value.forEach((item, i) => walk(type.items, item, [...path, i], out));
      return;
    case 'object':
      if (isPlainObject(value)) out.push(...collectReferences(type.fields, value, path));
      return;
    case 'module':
      if (isPlainObject(value)) out.push(...collectReferences(type.module.fields, value, path));
      return;
    default:
      return;
  }
}
