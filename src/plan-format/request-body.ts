/**
 * Request bodies as the plan carries them: the desired values by their request names, with what
 * the plan cannot know written as placeholders the applier resolves when it sends: a reference to
 * an object created earlier in the run (`{ref}`), a sensitive value (`{secret}`, never the value).
 * An object that would read as a placeholder is written as its `{entries}`, so every placeholder
 * is one the planner wrote.
 */
import { isUnder } from '../path-prefix.js';
import {
  isObjectKey,
  nestedFields,
  type FieldPath,
  type FieldType,
  type Fields,
} from '../resources/index.js';
import { isPlainObject } from '../plain-object.js';
import type { EntriesValue, RefValue, SecretValue } from './types.js';

type Plain = Record<string, unknown>;

/** The members a placeholder is made of: an object with exactly one of them is one. */
const placeholderMembers: ReadonlySet<string> = new Set(['ref', 'secret', 'entries']);

/** Whether `value` reads as a placeholder: an object whose only member is a placeholder member. */
export function isPlaceholderShaped(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const names = Object.keys(value);
  return names.length === 1 && placeholderMembers.has(names[0] as string);
}

/** What encoding one object's values needs: its key, and which of its paths are sensitive. */
export interface BodyContext {
  readonly key: string;
  readonly sensitive: readonly FieldPath[];
}

/** A reference as sent: a key (an object this plan creates) as a placeholder, an id as it is. */
function refValue(ref: unknown): unknown {
  return typeof ref === 'string' && isObjectKey(ref) ? ({ ref } satisfies RefValue) : ref;
}

/** An object of encoded entries, as its entries when a key is a reference or it reads as a placeholder. */
function objectOf(entries: readonly (readonly [string | RefValue, unknown])[]): unknown {
  const plain = entries.every(([k]) => typeof k === 'string');
  const value: Plain | undefined = plain ? (Object.fromEntries(entries) as Plain) : undefined;
  return value !== undefined && !isPlaceholderShaped(value) ? value : ({ entries } satisfies EntriesValue);
}

/** A value no descriptor describes (JSON): descended only to reach sensitive values and escape. */
function encodeJson(value: unknown, ctx: BodyContext, path: FieldPath): unknown {
  if (ctx.sensitive.some((s) => isUnder(path, s)))
    return { secret: { key: ctx.key, path } } satisfies SecretValue;
  if (Array.isArray(value)) return value.map((v, i) => encodeJson(v, ctx, [...path, i]));
  if (!isPlainObject(value)) return value;
  return objectOf(Object.entries(value).map(([k, v]) => [k, encodeJson(v, ctx, [...path, k])] as const));
}

function encodeValue(type: FieldType, value: unknown, ctx: BodyContext, path: FieldPath): unknown {
  if (ctx.sensitive.some((s) => isUnder(path, s)))
    return { secret: { key: ctx.key, path } } satisfies SecretValue;
  const fields = nestedFields(type);
  if (fields !== undefined && isPlainObject(value)) return encodeMembers(fields, value, ctx, path);
  if (type.type === 'list' && Array.isArray(value))
    return value.map((v, i) => encodeValue(type.items, v, ctx, [...path, i]));
  if (type.type === 'map' && isPlainObject(value)) {
    const keyOf = (k: string) => (type.keyRef === undefined ? k : (refValue(k) as string | RefValue));
    return objectOf(
      Object.entries(value).map(
        ([k, v]) => [keyOf(k), encodeValue(type.values, v, ctx, [...path, k])] as const,
      ),
    );
  }
  if (type.type === 'ref') return type.many && Array.isArray(value) ? value.map(refValue) : refValue(value);
  return encodeJson(value, ctx, path);
}

function encodeMembers(fields: Fields, values: Readonly<Plain>, ctx: BodyContext, path: FieldPath): unknown {
  const entries: [string, unknown][] = [];
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    if (f === undefined || value === undefined) continue;
    entries.push([f.writeAs ?? name, encodeValue(f.type, value, ctx, [...path, name])]);
  }
  return objectOf(entries);
}

/**
 * The body sending `values` (plain values by response names, references as keys or ids) of an
 * object described by `fields` sitting at `path` of the desired object (`[]`, or a module's name).
 */
export function requestBody(
  fields: Fields,
  values: Readonly<Plain>,
  ctx: BodyContext,
  path: FieldPath = [],
): Record<string, unknown> {
  const body = encodeMembers(fields, values, ctx, path);
  // A body whose members read as a placeholder cannot be sent: no descriptor has such members.
  if (!isPlainObject(body) || isPlaceholderShaped(body))
    throw new Error(`${ctx.key}: a request body would read as a placeholder`);
  return body;
}
