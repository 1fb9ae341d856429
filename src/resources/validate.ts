/**
 * Checks a body against a kind's fields: types, enums, limits, formats, required members, unknown
 * members and cross-field rules. Returns every violation, never throws. The emulator answers the
 * first with 400; the loader reports all of them at their lines.
 */
import { ErrorCode } from './error-codes.js';
import { describeValue } from './describe-value.js';
import { derivedOnce, namedFields } from './field-lists.js';
import { builtinKinds, type KindRegistry } from './registry.js';
import { integerProblem, numberProblem, problem, stringProblem, type Problem } from './scalar-problems.js';
import { anyOf } from './titles.js';
import type { Field, FieldNaming, FieldType, Fields, RefTarget, Rule, Violation } from './types.js';
import { isPlainObject } from '../plain-object.js';

/**
 * What the body is:
 * - `create`: a POST body (create-time fields, required ones enforced);
 * - `update`: a PATCH body (fields a PATCH takes, nothing required);
 * - `replace`: a module PUT body (the module's writable fields, required ones enforced);
 * - `desired`: an object of the desired state, with read names and references as logical names or
 *   raw ids (every writable field allowed, required ones enforced; ids are not prefix-checked).
 */
type BodyMode = 'create' | 'update' | 'replace' | 'desired';

/**
 * Where a value sits: its parent's path and its own key. The walk keeps the two apart and joins them
 * only when it records a problem, so a body without problems costs no array per value.
 */
type Path = readonly (string | number)[];
type Key = string | number;

interface Context {
  readonly mode: BodyMode;
  readonly naming: FieldNaming;
  /** The kinds ids are checked against (a reference's prefix names its kind). */
  readonly kinds: KindRegistry;
  readonly out: Violation[];
}

/** Whether a field may appear in a body of this mode. */
function acceptsField(f: Field, mode: BodyMode, topLevel: boolean): boolean {
  if (f.write === 'read-only') return false;
  if (!topLevel || mode === 'replace' || mode === 'desired') return true;
  if (mode === 'create') return f.write !== 'update-only';
  return f.write === 'mutable' || f.write === 'update-only';
}

const modeIndex: Readonly<Record<BodyMode, number>> = { create: 0, update: 1, replace: 2, desired: 3 };

/** The fields a body accepts, by the name it writes them under: a lookup and a list to walk. */
interface Accepted {
  readonly byName: ReadonlyMap<string, Field>;
  readonly list: readonly (readonly [string, Field])[];
}

/** Per table, what a body accepts, one slot per mode, naming and level. */
const acceptedByWay = derivedOnce((_fields: Fields): Accepted[] => []);

/** A list item or map value is checked as its field, except that it may never be null. */
const memberField = derivedOnce((f: Field): Field => ({ ...f, nullable: false }));

const noRules: readonly Rule[] = [];

type FieldTypeOf<T extends FieldType['type']> = Extract<FieldType, { type: T }>;

function acceptedFields(fields: Fields, ctx: Context, topLevel: boolean): Accepted {
  const slots = acceptedByWay(fields);
  const way = modeIndex[ctx.mode] * 4 + (ctx.naming === 'write' ? 2 : 0) + (topLevel ? 1 : 0);
  let accepted = slots[way];
  if (accepted === undefined) {
    const byName = new Map<string, Field>();
    for (const { name, field: f, requestName } of namedFields(fields)) {
      if (acceptsField(f, ctx.mode, topLevel)) byName.set(ctx.naming === 'write' ? requestName : name, f);
    }
    accepted = { byName, list: [...byName] };
    slots[way] = accepted;
  }
  return accepted;
}

/**
 * Validates `body` against `fields`; `rules` are the cross-field rules of that level. A request
 * body's ids are checked against `kinds` (the emulator's registry).
 */
export function validateBody(
  fields: Fields,
  rules: readonly Rule[],
  body: unknown,
  mode: BodyMode,
  kinds: KindRegistry = builtinKinds,
): Violation[] {
  const ctx: Context = { mode, naming: mode === 'desired' ? 'read' : 'write', kinds, out: [] };
  checkObject(fields, rules, body, [], ctx, true);
  return ctx.out;
}

function checkObject(
  fields: Fields,
  rules: readonly Rule[],
  body: unknown,
  path: Path,
  ctx: Context,
  topLevel: boolean,
): void {
  if (!isPlainObject(body)) {
    ctx.out.push({
      path,
      message: `expected an object, found ${describeValue(body)}`,
      code: ErrorCode.invalidValue,
    });
    return;
  }
  const accepted = acceptedFields(fields, ctx, topLevel);
  for (const key of Object.keys(body)) {
    if (!accepted.byName.has(key)) {
      ctx.out.push({
        path: [...path, key],
        message: unknownFieldMessage(key, fields, ctx, topLevel),
        code: ErrorCode.unknownField,
      });
    }
  }
  const enforceRequired = ctx.mode !== 'update';
  let valid = true;
  for (const [key, f] of accepted.list) {
    const value = body[key];
    if (value === undefined) {
      if (enforceRequired && f.required) {
        ctx.out.push({
          path: [...path, key],
          message: `${key} is required`,
          code: ErrorCode.validationFailed,
        });
        valid = false;
      }
      continue;
    }
    const before = ctx.out.length;
    checkValue(f, f.type, value, path, key, ctx);
    if (ctx.out.length > before) valid = false;
  }
  // Cross-field rules only make sense once every member has the right type.
  if (valid) {
    for (const rule of rules) {
      for (const v of rule.check(body, ctx.naming)) ctx.out.push({ ...v, path: [...path, ...v.path] });
    }
  }
}

function unknownFieldMessage(key: string, fields: Fields, ctx: Context, topLevel: boolean): string {
  const f = namedFields(fields).find(({ name, field }) => name === key || field.writeAs === key)?.field;
  if (f) {
    if (f.write === 'read-only') return `${key} is read-only: the service computes it`;
    if (topLevel && ctx.mode === 'update' && f.write === 'immutable') {
      return `${key} cannot be changed after creation`;
    }
    if (topLevel && ctx.mode === 'create' && f.write === 'update-only')
      return `${key} can only be set by an update`;
  }
  return `unknown field ${key}`;
}

/** Checks the value at `[...parent, key]`, recording what is wrong with it. */
function checkValue(f: Field, type: FieldType, value: unknown, parent: Path, key: Key, ctx: Context): void {
  if (ctx.naming === 'write' && f.blankIsUnset === true && (value === null || value === '')) return;
  const found = valueProblem(f, type, value, parent, key, ctx);
  if (found !== undefined) ctx.out.push({ path: [...parent, key], message: found.message, code: found.code });
}

/**
 * What is wrong with the value itself; the members of a list, map or object are checked (and their
 * problems recorded) on the way.
 */
function valueProblem(
  f: Field,
  type: FieldType,
  value: unknown,
  parent: Path,
  key: Key,
  ctx: Context,
): Problem | undefined {
  if (value === null) return f.nullable ? undefined : problem(`${String(key)} may not be null`);
  switch (type.type) {
    case 'string':
      return stringProblem(type, value);
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : problem(`expected true or false, found ${describeValue(value)}`);
    case 'integer':
      return integerProblem(type, value);
    case 'number':
      return numberProblem(type, value);
    case 'enum':
      return typeof value === 'string' && type.values.includes(value)
        ? undefined
        : problem(`must be one of ${type.values.join(', ')}; found ${describeValue(value)}`);
    case 'list':
      return listProblem(f, type, value, parent, key, ctx);
    case 'map':
      return mapProblem(f, type, value, parent, key, ctx);
    case 'object':
      checkObject(
        type.fields,
        type.rules ?? noRules,
        value,
        [...parent, key],
        { ...ctx, mode: 'replace' },
        false,
      );
      return undefined;
    case 'module':
      checkObject(
        type.module.fields,
        type.module.rules,
        value,
        [...parent, key],
        { ...ctx, mode: 'replace' },
        false,
      );
      return undefined;
    case 'ref':
      return referencesProblem(type, value, parent, key, ctx);
    case 'json':
      return undefined;
  }
}

function listProblem(
  f: Field,
  type: FieldTypeOf<'list'>,
  value: unknown,
  parent: Path,
  key: Key,
  ctx: Context,
): Problem | undefined {
  if (!Array.isArray(value)) return problem(`expected a list, found ${describeValue(value)}`);
  if (value.length === 0) return undefined;
  const path = [...parent, key];
  const item = memberField(f);
  for (let i = 0; i < value.length; i++) checkValue(item, type.items, value[i], path, i, ctx);
  return undefined;
}

function mapProblem(
  f: Field,
  type: FieldTypeOf<'map'>,
  value: unknown,
  parent: Path,
  key: Key,
  ctx: Context,
): Problem | undefined {
  if (!isPlainObject(value)) return problem(`expected a map, found ${describeValue(value)}`);
  const path = [...parent, key];
  const member = memberField(f);
  for (const k of Object.keys(value)) {
    if (type.keyRef) checkReference(type.keyRef, k, path, k, ctx);
    checkValue(member, type.values, value[k], path, k, ctx);
  }
  return undefined;
}

function referencesProblem(
  type: FieldTypeOf<'ref'>,
  value: unknown,
  parent: Path,
  key: Key,
  ctx: Context,
): Problem | undefined {
  if (!type.many) {
    checkReference(type.target, value, parent, key, ctx);
    return undefined;
  }
  if (!Array.isArray(value)) return problem(`expected a list of references, found ${describeValue(value)}`);
  if (value.length === 0) return undefined;
  const path = [...parent, key];
  for (let i = 0; i < value.length; i++) checkReference(type.target, value[i], path, i, ctx);
  return undefined;
}

/** A reference is an id of one of the target kinds in request bodies, a name or an id in the config. */
function checkReference(target: RefTarget, value: unknown, parent: Path, key: Key, ctx: Context): void {
  if (typeof value !== 'string' || value === '') {
    ctx.out.push({
      path: [...parent, key],
      message: `expected a reference (a name or an id), found ${describeValue(value)}`,
      code: ErrorCode.invalidValue,
    });
    return;
  }
  if (ctx.naming !== 'write') return;
  const kind = ctx.kinds.descriptorOfId(value)?.kind;
  if (kind === undefined || !target.kinds.includes(kind)) {
    ctx.out.push({
      path: [...parent, key],
      message: `${value} is not the id of ${anyOf(target.kinds, ctx.kinds)}`,
      code: ErrorCode.wrongIdPrefix,
    });
  }
}
