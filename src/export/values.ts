/**
 * One live record → the values a person writes in the config: read-only and server-filled members
 * dropped, values equal to the descriptor default dropped, references written as logical names
 * (or raw ids for objects outside the export), the ownership marker stripped from `metadata`, and
 * write-only secrets replaced by `{env: ...}` placeholders since the API never returns them.
 */
import equal from 'fast-deep-equal';
import { readMetadata } from '../live/index.js';
import {
  mapValue,
  nestedObject,
  plainReference,
  refId,
  serverFills,
  type Field,
  type FieldType,
  type Fields,
  type Rule,
  type ValueMapper,
} from '../resources/index.js';

type Plain = Record<string, unknown>;
type Path = readonly (string | number)[];

/** A secret the export could not read, left as `{env: variable}` at `path` (config names). */
export interface Placeholder {
  readonly path: Path;
  readonly variable: string;
}

/** What converting a record needs to know about the rest of the export. */
export interface ValueContext {
  /** The logical name of the exported object with this id; undefined when it is not exported. */
  nameOf(id: string): string | undefined;
  /** The environment variable that will hold the secret at `path` of this object. */
  variableFor(path: Path): string;
}

interface ConfigValues {
  readonly values: Plain;
  readonly placeholders: readonly Placeholder[];
}

/** Converts the writable fields of `record`; `topLevel` marks an object's own fields (its `metadata`). */
export function configValues(
  fields: Fields,
  rules: readonly Rule[],
  record: Plain,
  ctx: ValueContext,
  topLevel = true,
): ConfigValues {
  const placeholders: Placeholder[] = [];
  const values = convertFields(fields, rules, record, ctx, [], placeholders, topLevel);
  return { values, placeholders };
}

function convertFields(
  fields: Fields,
  rules: readonly Rule[],
  record: Plain,
  ctx: ValueContext,
  path: Path,
  placeholders: Placeholder[],
  topLevel: boolean,
): Plain {
  const out: Plain = {};
  for (const [name, f] of Object.entries(fields)) {
    if (f.write === 'read-only') continue;
    if (f.writeOnly || f.secret) {
      if (secretNeeded(name, f, rules, record)) {
        const variable = ctx.variableFor([...path, name]);
        out[name] = { env: variable };
        placeholders.push({ path: [...path, name], variable });
      }
      continue;
    }
    const raw = topLevel && name === 'metadata' ? readMetadata(record).user : record[name];
    if (raw === null || raw === undefined || !keep(f, raw, record, ctx)) continue;
    out[name] = convertValue(f.type, raw, ctx, [...path, name], placeholders);
  }
  return out;
}

/**
 * Whether a value belongs in the YAML. Objects and modules always do when present (their presence is
 * the setting); other values only when they differ from what the service assumes when omitted. A
 * server-filled value is the service's choice, except a reference to an object the export writes
 * too (an uploaded certificate attached to a domain), which the user chose.
 */
function keep(f: Field, value: unknown, record: Plain, ctx: ValueContext): boolean {
  if (serverFills(f, record)) {
    if (f.type.type !== 'ref') return false;
    const id = refId(value);
    return typeof id === 'string' && ctx.nameOf(id) !== undefined;
  }
  if (nestedObject(f.type) !== undefined) return true;
  // Refs as ids, so a list of Refs compares with a default of `[]` like any list.
  return f.default === undefined || !equal(plainReference(f.type, value), f.default);
}

/**
 * A secret is needed when the field is required, when the service returned one (a secret it does
 * echo still never goes into a file), or when the object's own rules fail without it (an OAuth
 * provider with a `client_id` needs its `client_secret`; one on the managed application does not).
 */
function secretNeeded(name: string, f: Field, rules: readonly Rule[], record: Plain): boolean {
  if (f.required) return true;
  if (!f.writeOnly && typeof record[name] === 'string' && record[name] !== '') return true;
  const violations = (value: string) =>
    rules.flatMap((r) => r.check({ ...record, [name]: value }, 'read')).length;
  return violations('') > violations('set');
}

function reference(value: unknown, ctx: ValueContext): unknown {
  const id = refId(value);
  return typeof id === 'string' ? (ctx.nameOf(id) ?? id) : id;
}

function convertValue(
  type: FieldType,
  value: unknown,
  ctx: ValueContext,
  path: Path,
  placeholders: Placeholder[],
): unknown {
  const asConfig: ValueMapper = {
    object: (nested, v, at) => convertFields(nested.fields, nested.rules, v, ctx, at, placeholders, false),
    leaf: (t, v) => plainReference(t, v, (ref) => reference(ref, ctx)),
    key: (map, key) => (map.keyRef === undefined ? key : String(reference(key, ctx))),
  };
  return mapValue(type, value, asConfig, path);
}
