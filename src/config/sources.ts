/**
 * `{env: NAME}` and `{file: path}` values: replaced by the string they name, walking the value by
 * its field types so that only string members are ever replaced. Every replaced value, and every
 * member of a `secret` field, is recorded as sensitive.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Field, FieldPath, FieldType, Fields } from '../resources/index.js';
import type { Finding } from './diagnostic.js';

/** Files named by `{file}` hold a certificate or a secret, never more. */
const maxValueFileBytes = 1024 * 1024;

const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

export interface SourceContext {
  readonly env: NodeJS.ProcessEnv;
  /** The YAML file the values come from: `{file}` paths are relative to its folder. */
  readonly yamlFile: string;
  /** Maps a field path of the object to its document path, for findings. */
  readonly docPath: (path: FieldPath) => readonly (string | number)[];
  readonly findings: Finding[];
  readonly sensitive: FieldPath[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
    out[name] = f === undefined ? value : resolveField(f, f.type, value, [...path, name], ctx);
  }
  return out;
}

function resolveField(
  f: Field,
  type: FieldType,
  value: unknown,
  path: FieldPath,
  ctx: SourceContext,
): unknown {
  if (value === null || value === undefined) return value;
  switch (type.type) {
    case 'string': {
      if (isPlainObject(value)) {
        ctx.sensitive.push(path);
        return readSource(value, path, ctx);
      }
      // Read-only members are refused by the schema pass; no need to also warn about them. A
      // secret of the wrong type (a number) is an error elsewhere, but still a secret to mask.
      if (f.secret && f.write !== 'read-only') {
        ctx.sensitive.push(path);
        if (typeof value === 'string' && value !== '') {
          ctx.findings.push({
            severity: 'warning',
            path: ctx.docPath(path),
            message: `${String(path.at(-1))} is a secret written in the file`,
            hint: 'read it with {env: NAME} or {file: path} so that it stays out of git',
          });
        }
      }
      return value;
    }
    case 'list':
      return Array.isArray(value)
        ? value.map((item, i) => resolveField(f, type.items, item, [...path, i], ctx))
        : value;
    case 'map':
      return isPlainObject(value)
        ? Object.fromEntries(
            Object.entries(value).map(([k, v]) => [k, resolveField(f, type.values, v, [...path, k], ctx)]),
          )
        : value;
    case 'object':
      return isPlainObject(value) ? resolveObject(type.fields, value, path, ctx) : value;
    case 'module':
      return isPlainObject(value) ? resolveObject(type.module.fields, value, path, ctx) : value;
    default:
      return value;
  }
}

/** The string a source names, or the source object unchanged (with a finding) when it cannot be read. */
function readSource(source: Record<string, unknown>, path: FieldPath, ctx: SourceContext): unknown {
  const fail = (message: string, hint?: string): unknown => {
    ctx.findings.push({ path: ctx.docPath(path), message, ...(hint ? { hint } : {}) });
    return source;
  };
  if (typeof source.env === 'string') {
    const value = ctx.env[source.env];
    if (value === undefined) {
      return fail(
        `environment variable ${source.env} is not set`,
        `export ${source.env} before running acctsync`,
      );
    }
    return value;
  }
  if (typeof source.file === 'string') {
    const file = isAbsolute(source.file) ? source.file : resolve(dirname(ctx.yamlFile), source.file);
    let size: number;
    try {
      const info = statSync(file);
      if (!info.isFile()) return fail(`${source.file} is not a file`);
      size = info.size;
    } catch {
      return fail(
        `file ${source.file} does not exist (looked for ${file})`,
        'paths are relative to this YAML file',
      );
    }
    if (size > maxValueFileBytes) return fail(`file ${source.file} is larger than 1 MB`);
    const text = utf8Text(readFileSync(file));
    if (text === undefined) {
      return fail(
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
