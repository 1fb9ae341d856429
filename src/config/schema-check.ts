/**
 * The structural pass: ajv against the generated schema, every error at once, each turned into a
 * finding with a message a person can act on (ajv's own messages name schema keywords).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { DocPath, Finding } from './diagnostic.js';
import { buildConfigSchema } from './schema.js';
import { didYouMean } from './suggest.js';

/** The ajv options of the structural pass, shared with the build step that precompiles it. */
export const ajvOptions = {
  allErrors: true,
  verbose: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

/** Where the build writes the precompiled validator, beside this module. */
export const precompiledValidatorUrl = new URL('./schema-validator.generated.js', import.meta.url);

/**
 * Compiling the schema takes a second or two, paid by every command. The build precompiles it
 * (`generate-validator.ts`); running from source, where no build ran, compiles it on first use.
 */
const precompiled = await import(precompiledValidatorUrl.href).then(
  (m: { default?: ValidateFunction }) => m.default,
  () => undefined,
);
let compiled: ValidateFunction | undefined = precompiled;

function validator(): ValidateFunction {
  compiled ??= new Ajv2020(ajvOptions).compile(buildConfigSchema());
  return compiled;
}

/** Decodes an ajv instance path (`/backends/a~1b/0`) into document path segments. */
function decodePath(pointer: string, data: unknown): DocPath {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      out.push(Number(seg));
      node = node[Number(seg)];
    } else {
      out.push(seg);
      node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[seg] : undefined;
    }
  }
  return out;
}

/** A short description of a value for "found ..." */
function describeFound(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : `"${value}"`;
  return `${typeof value} ${JSON.stringify(value) ?? typeof value}`;
}

function typeNames(types: unknown): string {
  const list = (Array.isArray(types) ? types : [types]) as string[];
  const names = list.map((t) =>
    t === 'object'
      ? list.includes('string')
        ? '{env: NAME} or {file: path}'
        : 'a map'
      : t === 'array'
        ? 'a list'
        : t,
  );
  return names.join(' or ');
}

function bound(value: unknown, fallback: string): string {
  return typeof value === 'number' ? String(value) : fallback;
}

function toFinding(e: ErrorObject, data: unknown): Finding {
  const path = decodePath(e.instancePath, data);
  const found = describeFound(e.data);
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'type':
      return {
        path,
        message: `expected ${typeNames(params.type)}, found ${found}`,
        expected: typeNames(params.type),
        found,
      };
    case 'enum': {
      const values = (params.allowedValues as unknown[]).filter((v) => v !== null).map(String);
      const hint = typeof e.data === 'string' ? didYouMean(e.data, values) : undefined;
      return {
        path,
        message: `must be one of ${values.join(', ')}; found ${found}`,
        expected: `one of ${values.join(', ')}`,
        found,
        ...(hint ? { hint } : {}),
      };
    }
    case 'const':
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}; found ${found}`, found };
    case 'required': {
      const member = String(params.missingProperty);
      return { path: [...path, member], message: `${member} is required` };
    }
    case 'additionalProperties': {
      const member = String(params.additionalProperty);
      const known = Object.keys(parent.properties ?? {});
      const hint = didYouMean(member, known);
      const message = path.length === 0 ? `unknown top-level key ${member}` : `unknown field ${member}`;
      return {
        path: [...path, member],
        message,
        atKey: true,
        ...(hint ? { hint } : { hint: `known fields: ${known.join(', ')}` }),
      };
    }
    case 'not':
      if (parent.readOnly === true) {
        return {
          path,
          atKey: true,
          message: `${String(path.at(-1))} is read-only: the service computes it`,
          hint: 'remove it from the config',
        };
      }
      return { path, message: e.message ?? 'is not allowed' };
    case 'minimum':
    case 'maximum':
      return {
        path,
        message: `must be between ${bound(parent.minimum, '-∞')} and ${bound(parent.maximum, '∞')}, found ${found}`,
        found,
      };
    case 'minLength':
      return { path, message: 'must not be empty' };
    case 'maxLength':
      return { path, message: `is longer than ${String(params.limit)} characters` };
    case 'minProperties':
    case 'maxProperties':
      return {
        path,
        message: 'write exactly one of env or file',
        expected: '{env: NAME} or {file: path}',
        found,
      };
    case 'pattern':
      return { path, message: `${found} does not match ${String(params.pattern)}` };
    case 'propertyNames': {
      const name = String(params.propertyName);
      return {
        path: [...path, name],
        atKey: true,
        message: `${name} is not a valid logical name`,
        hint: 'use letters, digits, `.`, `_` and `-`, starting with a letter or digit (at most 128 characters)',
      };
    }
    case 'oneOf': {
      const members = ((parent.oneOf ?? []) as { required?: string[] }[]).flatMap((s) => s.required ?? []);
      const present = members.filter((m) => typeof e.data === 'object' && e.data !== null && m in e.data);
      return {
        path,
        atKey: true,
        message:
          present.length === 0
            ? `needs exactly one of ${members.join(', ')}; none is set`
            : `needs exactly one of ${members.join(', ')}; ${present.join(' and ')} are all set`,
      };
    }
    default:
      return { path, message: e.message ?? `fails ${e.keyword}` };
  }
}

/** Whether an error only restates another (the failed `if`, the variant branches of a `oneOf`). */
function isNoise(e: ErrorObject): boolean {
  if (e.keyword === 'if') return true;
  // Each branch of a variant `oneOf` reports its missing member; the `oneOf` error says it once.
  if (e.keyword === 'required' && e.schemaPath.includes('/oneOf/')) return true;
  // propertyNames reports the failing pattern and then itself; keep the latter.
  return e.keyword === 'pattern' && e.propertyName !== undefined;
}

/** Every structural problem of one parsed file. */
export function checkStructure(data: unknown): Finding[] {
  const validate = validator();
  if (validate(data)) return [];
  return (validate.errors ?? []).filter((e) => !isNoise(e)).map((e) => toFinding(e, data));
}
