/**
 * What a failed schema keyword means to a person: each ajv error of the structural pass becomes a
 * finding with a message the user can act on (ajv's own messages name schema keywords).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { apiVariableExplanations } from './api-variables.js';
import type { DocPath, Finding } from './diagnostic.js';
import { didYouMean } from '../suggest.js';
import { describeValue } from '../resources/index.js';

/** One ajv error, with what its explanation needs decoded once. */
interface Failure {
  readonly error: ErrorObject;
  readonly path: DocPath;
  /** The failing value, described for "found ...". */
  readonly found: string;
  readonly parent: Record<string, unknown>;
  readonly params: Record<string, unknown>;
}

type Explanation = (failure: Failure) => Finding;

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

function wrongType({ path, params, found }: Failure): Finding {
  return {
    path,
    message: `expected ${typeNames(params.type)}, found ${found}`,
    expected: typeNames(params.type),
    found,
  };
}

function notInEnum({ error, path, params, found }: Failure): Finding {
  const values = (params.allowedValues as unknown[]).filter((v) => v !== null).map(String);
  const hint = typeof error.data === 'string' ? didYouMean(error.data, values) : undefined;
  return {
    path,
    message: `must be one of ${values.join(', ')}; found ${found}`,
    expected: `one of ${values.join(', ')}`,
    found,
    ...(hint ? { hint } : {}),
  };
}

function notTheConstant({ path, params, found }: Failure): Finding {
  return { path, message: `must be ${JSON.stringify(params.allowedValue)}; found ${found}`, found };
}

function missingMember({ path, params }: Failure): Finding {
  const member = String(params.missingProperty);
  return { path: [...path, member], message: `${member} is required` };
}

function unknownMember({ path, params, parent }: Failure): Finding {
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

/** The schema lists read-only members with `not: {}`, so that their refusal can say why. */
function notAllowed({ error, path, parent }: Failure): Finding {
  if (parent.readOnly === true) {
    return {
      path,
      atKey: true,
      message: `${String(path.at(-1))} is read-only: the service computes it`,
      hint: 'remove it from the config',
    };
  }
  return { path, message: error.message ?? 'is not allowed' };
}

function outOfRange({ path, parent, found }: Failure): Finding {
  return {
    path,
    message: `must be between ${bound(parent.minimum, '-∞')} and ${bound(parent.maximum, '∞')}, found ${found}`,
    found,
  };
}

function emptyString({ path }: Failure): Finding {
  return { path, message: 'must not be empty' };
}

function tooLong({ path, params }: Failure): Finding {
  return { path, message: `is longer than ${String(params.limit)} characters` };
}

function notOneSource({ path, found }: Failure): Finding {
  return {
    path,
    message: 'write exactly one of env or file',
    expected: '{env: NAME} or {file: path}',
    found,
  };
}

function patternMismatch({ path, params, found }: Failure): Finding {
  const pattern = String(params.pattern);
  const meaning = apiVariableExplanations.get(pattern);
  if (meaning !== undefined) return { path, message: `${found} ${meaning.message}`, hint: meaning.hint };
  return { path, message: `${found} does not match ${pattern}` };
}

function invalidName({ path, params }: Failure): Finding {
  const name = String(params.propertyName);
  return {
    path: [...path, name],
    atKey: true,
    message: `${name} is not a valid logical name`,
    hint: 'use letters, digits, `.`, `_` and `-`, starting with a letter or digit (at most 128 characters)',
  };
}

function notExactlyOne({ error, path, parent }: Failure): Finding {
  const members = ((parent.oneOf ?? []) as { required?: string[] }[]).flatMap((s) => s.required ?? []);
  const present = members.filter(
    (m) => typeof error.data === 'object' && error.data !== null && m in error.data,
  );
  return {
    path,
    atKey: true,
    message:
      present.length === 0
        ? `needs exactly one of ${members.join(', ')}; none is set`
        : `needs exactly one of ${members.join(', ')}; ${present.join(' and ')} are all set`,
  };
}

/** By ajv keyword; a keyword not listed keeps ajv's message. */
const explanations = new Map<string, Explanation>([
  ['type', wrongType],
  ['enum', notInEnum],
  ['const', notTheConstant],
  ['required', missingMember],
  ['additionalProperties', unknownMember],
  ['not', notAllowed],
  ['minimum', outOfRange],
  ['maximum', outOfRange],
  ['minLength', emptyString],
  ['maxLength', tooLong],
  ['minProperties', notOneSource],
  ['maxProperties', notOneSource],
  ['pattern', patternMismatch],
  ['propertyNames', invalidName],
  ['oneOf', notExactlyOne],
]);

/** The finding for one ajv error on `data`, the document it checked. */
export function toFinding(error: ErrorObject, data: unknown): Finding {
  const failure: Failure = {
    error,
    path: decodePath(error.instancePath, data),
    found: describeValue(error.data, 'a map'),
    parent: error.parentSchema ?? {},
    params: error.params,
  };
  const explain = explanations.get(error.keyword);
  return explain === undefined
    ? { path: failure.path, message: error.message ?? `fails ${error.keyword}` }
    : explain(failure);
}

/** Whether an error only restates another (the failed `if`, the variant branches of a `oneOf`). */
export function isNoise(e: ErrorObject): boolean {
  if (e.keyword === 'if') return true;
  // Each branch of a variant `oneOf` reports its missing member; the `oneOf` error says it once.
  if (e.keyword === 'required' && e.schemaPath.includes('/oneOf/')) return true;
  // propertyNames reports the failing pattern and then itself; keep the latter.
  return e.keyword === 'pattern' && e.propertyName !== undefined;
}
