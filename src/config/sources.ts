/**
 * `{env: NAME}`, `{file: path}` and `{var: name}` values: replaced by the string they name, walking
 * the value by its field types so that only string members are ever replaced. Values read from the
 * environment or a file, and every member of a `secret` field, are recorded as sensitive; a `{var}`
 * is as sensitive as the value it names.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { describeSystemError, isSystemError } from '../errors.js';
import { mapValue, type Field, type FieldPath, type Fields } from '../resources/index.js';
import { closest } from './suggest.js';
import type { FileFinding, Place } from './source.js';
import { isPlainObject } from '../plain-object.js';

/** Files named by `{file}` hold a certificate or a secret, never more. */
const maxValueFileBytes = 1024 * 1024;

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

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export interface SourceContext {
  readonly env: NodeJS.ProcessEnv;
  readonly values: Values;
  /**
   * Where a field of the object was written: findings go there, and `{file}` paths are relative
   * to that file's folder.
   */
  readonly place: (path: FieldPath) => Place;
  readonly findings: FileFinding[];
  readonly sensitive: FieldPath[];
  /**
   * Field paths whose value a `{var}` took from the environment's values, and where that value is
   * defined: what a later finding about the value points at.
   */
  readonly valuePlaces: Map<string, Place>;
}

/** The key of a field path in `valuePlaces`. */
export function pathKey(path: FieldPath): string {
  return JSON.stringify(path);
}

/** Resolves the sources in `values` (an object's fields); returns a new object. */
export function resolveSources(
  fields: Fields,
  values: Record<string, unknown>,
  ctx: SourceContext,
): Record<string, unknown> {
  return resolveObject(fields, values, [], ctx);
}

function resolveObject(
  fields: Fields,
  values: Record<string, unknown>,
  path: FieldPath,
  ctx: SourceContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    out[name] = f === undefined ? value : resolveField(f, value, [...path, name], ctx);
  }
  return out;
}

function resolveField(f: Field, value: unknown, path: FieldPath, ctx: SourceContext): unknown {
  return mapValue(
    f.type,
    value,
    {
      object: (nested, v, at) => resolveObject(nested.fields, v, at, ctx),
      leaf: (type, v, at) => (type.type === 'string' ? resolveString(f, v, at, ctx) : v),
    },
    path,
  );
}

/** A string member: read from its `{env}`/`{file}` source, or kept, warning of a literal secret. */
function resolveString(f: Field, value: unknown, path: FieldPath, ctx: SourceContext): unknown {
  if (isPlainObject(value)) return readSource(value, path, ctx);
  // Read-only members are refused by the schema pass; no need to also warn about them. A
  // secret of the wrong type (a number) is an error elsewhere, but still a secret to mask.
  if (f.secret && f.write !== 'read-only') {
    ctx.sensitive.push(path);
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
function readSource(source: Record<string, unknown>, path: FieldPath, ctx: SourceContext): unknown {
  const place = ctx.place(path);
  if (typeof source.var === 'string') return readVar(source.var, place, path, ctx);
  ctx.sensitive.push(path);
  return readExternal(source, place, ctx.env, (message, hint) => {
    ctx.findings.push({ ...place, message, ...(hint ? { hint } : {}) });
  });
}

function readVar(name: string, place: Place, path: FieldPath, ctx: SourceContext): unknown {
  const { environment, byName } = ctx.values;
  const named = byName.get(name);
  if (named === undefined) {
    const suggestion = closest(name, byName.keys());
    ctx.findings.push({
      ...place,
      message:
        environment === undefined
          ? `no value named ${name}`
          : `no value named ${name} in environment ${environment}`,
      hint:
        suggestion !== undefined
          ? `did you mean ${suggestion}?`
          : environment === undefined
            ? 'define it under values: in the file that declares the environments'
            : `define it under environments.${environment}.values, or a default under values:`,
    });
    return { var: name };
  }
  ctx.valuePlaces.set(pathKey(path), named.place);
  if (!isPlainObject(named.value)) return typeof named.value === 'string' ? named.value : String(named.value);
  ctx.sensitive.push(path);
  // A value read from the environment or a file is reported where the value is defined.
  return readExternal(named.value, named.place, ctx.env, (message, hint) => {
    ctx.findings.push({ ...named.place, message, ...(hint ? { hint } : {}) });
  });
}

type Fail = (message: string, hint?: string) => void;

/** The text of an `{env}` or `{file}` source written at `place`. */
function readExternal(
  source: Record<string, unknown>,
  place: Place,
  env: NodeJS.ProcessEnv,
  fail: Fail,
): unknown {
  const failed = (message: string, hint?: string): unknown => {
    fail(message, hint);
    return source;
  };
  if (typeof source.env === 'string') {
    const value = env[source.env];
    if (value === undefined) {
      return failed(
        `environment variable ${source.env} is not set`,
        `export ${source.env} before running acctsync`,
      );
    }
    return value;
  }
  if (typeof source.file === 'string') {
    const file = isAbsolute(source.file) ? source.file : resolve(dirname(place.source.absolute), source.file);
    let bytes: Buffer;
    try {
      const info = statSync(file);
      if (!info.isFile()) return failed(`${source.file} is not a file`);
      if (info.size > maxValueFileBytes) return failed(`file ${source.file} is larger than 1 MB`);
      bytes = readFileSync(file);
    } catch (err) {
      if (isSystemError(err) && err.code !== 'ENOENT') {
        return failed(`cannot read file ${source.file}: ${describeSystemError(err)}`);
      }
      return failed(
        `file ${source.file} does not exist (looked for ${file})`,
        'paths are relative to this YAML file',
      );
    }
    const text = utf8Text(bytes);
    if (text === undefined) {
      return failed(
        `file ${source.file} is not UTF-8 text`,
        'save it as UTF-8 (a UTF-16 file, with or without a byte-order mark, is refused)',
      );
    }
    return fileValue(text);
  }
  // Malformed sources were reported by the schema pass.
  return source;
}

/**
 * The file's text, or undefined when it is not UTF-8: a UTF-16 file (BOM or not) or a binary one
 * would otherwise be silently mangled into a different secret.
 */
function utf8Text(bytes: Buffer): string | undefined {
  const utf16Bom =
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  if (utf16Bom || bytes.includes(0)) return undefined;
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A one-line file loses its final newline (an editor adds it; a secret never ends with one).
 * Multi-line content (PEM) is kept byte for byte, final newline included.
 */
function fileValue(text: string): string {
  const trimmed = text.replace(/\r?\n$/, '');
  return trimmed.includes('\n') ? text : trimmed;
}
