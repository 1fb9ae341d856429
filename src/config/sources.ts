/**
 * `{env: NAME}`, `{file: path}` and `{var: name}` values: replaced by the string they name, walking
 * the value by its field types so that only string members are ever replaced. Values read from the
 * environment or a file, and every member of a `secret` field, are recorded as sensitive; a `{var}`
 * is as sensitive as the value it names.
 */
import { mapValue, type Field, type FieldPath, type FieldType, type Fields } from '../resources/index.js';
import { readExternal, type ExternalContext } from './external-value.js';
import { didYouMean } from '../suggest.js';
import type { FileFinding, Place } from './source.js';
import { isPlainObject } from '../plain-object.js';
import type { Withheld } from './withheld.js';

/** A value `{var: name}` can name, and where it was defined. */
export interface NamedValue {
  readonly value: unknown;
  readonly place: Place;
}

/** The values of the environment being loaded (its own over the config's defaults). */
export interface Values {
  /** The environment, for messages; undefined without environments. */
  readonly environment?: string;
  readonly byName: ReadonlyMap<string, NamedValue>;
}

type StringType = Extract<FieldType, { type: 'string' }>;

export interface SourceContext extends ExternalContext {
  readonly values: Values;
  /**
   * Where a field of the object was written: findings go there, and `{file}` paths are relative
   * to that file's folder.
   */
  readonly place: (path: FieldPath) => Place;
  readonly findings: FileFinding[];
  /** Made on the first (most objects have none). */
  sensitive?: FieldPath[];
  /**
   * Field paths whose value a `{var}` took from the environment's values, and where that value is
   * defined: what a later finding about the value points at. Made on the first (most objects have none).
   */
  valuePlaces?: Map<string, Place>;
  /** The values read from the environment or a file, by field path (`pathKey`): never echoed. Made on the first. */
  withheld?: Map<string, Withheld>;
}

/** The key of a field path in `valuePlaces`. */
export function pathKey(path: FieldPath): string {
  return JSON.stringify(path);
}

/**
 * Resolves the sources in `values` (an object's fields); returns a new object, without the
 * top-level members `omit` names (those an entry holds besides its fields).
 */
export function resolveSources(
  fields: Fields,
  values: Record<string, unknown>,
  ctx: SourceContext,
  omit?: (member: string) => boolean,
): Record<string, unknown> {
  return resolveObject(fields, values, [], ctx, omit);
}

function resolveObject(
  fields: Fields,
  values: Record<string, unknown>,
  path: FieldPath,
  ctx: SourceContext,
  omit?: (member: string) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(values)) {
    if (omit?.(name) === true) continue;
    const value = values[name];
    const f = fields[name];
    // A scalar of a field that is not secret is kept as written (no source can be in it): no walk.
    const kept = f === undefined || (!f.secret && (value === null || typeof value !== 'object'));
    out[name] = kept ? value : resolveField(f, value, [...path, name], ctx);
  }
  return out;
}

function resolveField(f: Field, value: unknown, path: FieldPath, ctx: SourceContext): unknown {
  return mapValue(
    f.type,
    value,
    {
      object: (nested, v, at) => resolveObject(nested.fields, v, at, ctx),
      leaf: (type, v, at) => (type.type === 'string' ? resolveString(f, type, v, at, ctx) : v),
    },
    path,
  );
}

/** A string member: read from its `{env}`/`{file}` source, or kept, warning of a literal secret. */
function resolveString(
  f: Field,
  type: StringType,
  value: unknown,
  path: FieldPath,
  ctx: SourceContext,
): unknown {
  if (isPlainObject(value)) return readSource(value, type, path, ctx);
  // Read-only members are refused by the schema pass; no need to also warn about them. A
  // secret of the wrong type (a number) is an error elsewhere, but still a secret to mask.
  if (f.secret && f.write !== 'read-only') {
    (ctx.sensitive ??= []).push(path);
    if (typeof value === 'string' && value !== '') {
      ctx.findings.push({
        severity: 'warning',
        ...ctx.place(path),
        message: `${String(path.at(-1))} is a secret written in the file`,
        hint: 'read it with {env: NAME} or {file: path} so that it stays out of git',
      });
    }
  }
  return value;
}

/**
 * The string a source names, or the source object unchanged (with a finding) when it cannot be
 * read. A `{var}` naming a source reads that source, relative to the file that defined the value.
 */
function readSource(
  source: Record<string, unknown>,
  type: StringType,
  path: FieldPath,
  ctx: SourceContext,
): unknown {
  const place = ctx.place(path);
  if (typeof source.var === 'string') return readVar(source.var, type, place, path, ctx);
  return readWithheld(source, type, place, path, ctx);
}

/** An `{env}`/`{file}` source's text, recorded as sensitive and withheld; problems reported at `place`. */
function readWithheld(
  source: Record<string, unknown>,
  type: StringType,
  place: Place,
  path: FieldPath,
  ctx: SourceContext,
): unknown {
  (ctx.sensitive ??= []).push(path);
  const read = readExternal(source, place.source.absolute, ctx);
  if (read.ok === 'malformed') return source;
  if (!read.ok) {
    const unchecked = ctx.uncheckedUnavailable === true ? read.unavailable : undefined;
    ctx.findings.push({
      ...place,
      message: read.message,
      ...(read.hint ? { hint: read.hint } : {}),
      ...(unchecked === undefined ? {} : { unchecked }),
    });
    return source;
  }
  (ctx.withheld ??= new Map()).set(pathKey(path), {
    subject: read.subject,
    value: read.value,
    ...(type.format === undefined ? {} : { format: type.format }),
  });
  return read.value;
}

function readVar(name: string, type: StringType, place: Place, path: FieldPath, ctx: SourceContext): unknown {
  const { environment, byName } = ctx.values;
  const named = byName.get(name);
  if (named === undefined) {
    ctx.findings.push({
      ...place,
      message:
        environment === undefined
          ? `no value named ${name}`
          : `no value named ${name} in environment ${environment}`,
      hint:
        didYouMean(name, byName.keys()) ??
        (environment === undefined
          ? 'define it under values: in the file that declares the environments'
          : `define it under environments.${environment}.values, or a default under values:`),
    });
    return { var: name };
  }
  (ctx.valuePlaces ??= new Map()).set(pathKey(path), named.place);
  if (!isPlainObject(named.value)) return typeof named.value === 'string' ? named.value : String(named.value);
  // A value read from the environment or a file is reported where the value is defined.
  return readWithheld(named.value, type, named.place, path, ctx);
}
