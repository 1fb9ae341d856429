/**
 * Which members a body of each mode may have (`validateBody`), and why one it may not have is refused.
 */
import { derivedOnce, namedFields } from './field-lists.js';
import type { Field, FieldNaming, Fields } from './types.js';

/**
 * What the body is:
 * - `create`: a POST body (create-time fields, required ones enforced);
 * - `update`: a PATCH body (fields a PATCH takes, nothing required);
 * - `replace`: a module PUT body (the module's writable fields, required ones enforced);
 * - `desired`: an object of the desired state, with read names and references as logical names or
 *   raw ids (every writable field allowed, required ones enforced; ids are not prefix-checked).
 */
export type BodyMode = 'create' | 'update' | 'replace' | 'desired';

/** Whether a field may appear in a body of this mode. */
function acceptsField(f: Field, mode: BodyMode, topLevel: boolean): boolean {
  if (f.write === 'read-only') return false;
  if (!topLevel || mode === 'replace' || mode === 'desired') return true;
  if (mode === 'create') return f.write !== 'update-only';
  return f.write === 'mutable' || f.write === 'update-only';
}

const modeIndex: Readonly<Record<BodyMode, number>> = { create: 0, update: 1, replace: 2, desired: 3 };

/** The fields a body accepts, by the name it writes them under: a lookup and a list to walk. */
export interface Accepted {
  readonly byName: ReadonlyMap<string, Field>;
  readonly list: readonly (readonly [string, Field])[];
  /** How many of them are required. */
  readonly required: number;
}

/** Per table, what a body accepts, one slot per mode, naming and level. */
const acceptedByWay = derivedOnce((_fields: Fields): Accepted[] => []);

export function acceptedFields(
  fields: Fields,
  mode: BodyMode,
  naming: FieldNaming,
  topLevel: boolean,
): Accepted {
  const slots = acceptedByWay(fields);
  const way = modeIndex[mode] * 4 + (naming === 'write' ? 2 : 0) + (topLevel ? 1 : 0);
  let accepted = slots[way];
  if (accepted === undefined) {
    const byName = new Map<string, Field>();
    for (const { name, field: f, requestName } of namedFields(fields)) {
      if (acceptsField(f, mode, topLevel)) byName.set(naming === 'write' ? requestName : name, f);
    }
    let required = 0;
    for (const f of byName.values()) if (f.required) required++;
    accepted = { byName, list: [...byName], required };
    slots[way] = accepted;
  }
  return accepted;
}

export function unknownFieldMessage(key: string, fields: Fields, mode: BodyMode, topLevel: boolean): string {
  const f = namedFields(fields).find(({ name, field }) => name === key || field.writeAs === key)?.field;
  if (f) {
    if (f.write === 'read-only') return `${key} is read-only: the service computes it`;
    if (topLevel && mode === 'update' && f.write === 'immutable') {
      return `${key} cannot be changed after creation`;
    }
    if (topLevel && mode === 'create' && f.write === 'update-only')
      return `${key} can only be set by an update`;
  }
  return `unknown field ${key}`;
}
