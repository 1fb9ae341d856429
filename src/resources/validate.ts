/**
 * Checks a body against a kind's fields: types, enums, limits, formats, required members, unknown
 * members and cross-field rules. Returns every violation, never throws. The emulator answers the
 * first with 400; the loader reports all of them at their lines.
 */
import { ErrorCode } from './error-codes.js';
import { describeValue } from './describe-value.js';
import { checkFormat } from './format-check.js';
import { byteLength, charLength } from './formats/index.js';
import { derivedOnce, namedFields } from './field-lists.js';
import { descriptorOfId } from './registry.js';
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

type Path = (string | number)[];

interface Context {
  readonly mode: BodyMode;
  readonly naming: FieldNaming;
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

/** Validates `body` against `fields`; `rules` are the cross-field rules of that level. */
export function validateBody(
  fields: Fields,
  rules: readonly Rule[],
  body: unknown,
  mode: BodyMode,
  naming: FieldNaming = mode === 'desired' ? 'read' : 'write',
): Violation[] {
  const ctx: Context = { mode, naming, out: [] };
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
    checkValue(f, f.type, value, [...path, key], ctx);
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

/** Records a violation at the value being checked; the code defaults to "invalid value". */
type Complaint = (message: string, code?: number) => void;

type FieldTypeOf<T extends FieldType['type']> = Extract<FieldType, { type: T }>;

function checkValue(f: Field, type: FieldType, value: unknown, path: Path, ctx: Context): void {
  const bad: Complaint = (message, code = ErrorCode.invalidValue) => {
    ctx.out.push({ path, message, code });
  };
  if (ctx.naming === 'write' && f.blankIsUnset === true && (value === null || value === '')) return;
  if (value === null) {
    if (!f.nullable) bad(`${String(path.at(-1))} may not be null`);
    return;
  }
  switch (type.type) {
    case 'string':
      return checkString(type, value, bad);
    case 'boolean':
      if (typeof value !== 'boolean') bad(`expected true or false, found ${describeValue(value)}`);
      return;
    case 'integer':
      return checkInteger(type, value, bad);
    case 'number':
      return checkNumber(type, value, bad);
    case 'enum':
      if (typeof value !== 'string' || !type.values.includes(value)) {
        bad(`must be one of ${type.values.join(', ')}; found ${describeValue(value)}`);
      }
      return;
    case 'list':
      if (!Array.isArray(value)) return bad(`expected a list, found ${describeValue(value)}`);
      value.forEach((item, i) => checkValue(memberField(f), type.items, item, [...path, i], ctx));
      return;
    case 'map':
      return checkMap(f, type, value, path, ctx, bad);
    case 'object':
      return checkObject(type.fields, type.rules ?? noRules, value, path, { ...ctx, mode: 'replace' }, false);
    case 'module':
      return checkObject(
        type.module.fields,
        type.module.rules,
        value,
        path,
        { ...ctx, mode: 'replace' },
        false,
      );
    case 'ref':
      return checkReferences(type, value, path, ctx, bad);
    case 'json':
      return;
  }
}

function checkString(type: FieldTypeOf<'string'>, value: unknown, bad: Complaint): void {
  if (typeof value !== 'string') return bad(`expected a string, found ${describeValue(value)}`);
  if (type.minLength !== undefined && value.length < type.minLength) return bad('must not be empty');
  if (type.maxBytes !== undefined && byteLength(value) > type.maxBytes) {
    return bad(`is ${byteLength(value)} bytes long; the limit is ${type.maxBytes} bytes`, type.tooLongCode);
  }
  if (type.maxChars !== undefined && charLength(value) > type.maxChars) {
    return bad(
      `is ${charLength(value)} characters long; the limit is ${type.maxChars} characters`,
      type.tooLongCode,
    );
  }
  if (type.format !== undefined) {
    const reason = checkFormat(type.format, value);
    if (reason !== undefined)
      bad(reason, type.format === 'event-type' ? ErrorCode.unknownEventType : undefined);
  }
}

function checkInteger(type: FieldTypeOf<'integer'>, value: unknown, bad: Complaint): void {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return bad(`expected a whole number, found ${describeValue(value)}`);
  }
  if (value < type.min || value > type.max)
    bad(`must be between ${type.min} and ${type.max}, found ${value}`);
}

function checkNumber(type: FieldTypeOf<'number'>, value: unknown, bad: Complaint): void {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return bad(`expected a number, found ${describeValue(value)}`);
  if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) {
    bad(`must be between ${type.min ?? '-∞'} and ${type.max ?? '∞'}, found ${value}`, type.errorCode);
  }
}

function checkMap(
  f: Field,
  type: FieldTypeOf<'map'>,
  value: unknown,
  path: Path,
  ctx: Context,
  bad: Complaint,
): void {
  if (!isPlainObject(value)) return bad(`expected a map, found ${describeValue(value)}`);
  for (const [k, v] of Object.entries(value)) {
    if (type.keyRef) checkReference(type.keyRef, k, [...path, k], ctx);
    checkValue(memberField(f), type.values, v, [...path, k], ctx);
  }
}

function checkReferences(
  type: FieldTypeOf<'ref'>,
  value: unknown,
  path: Path,
  ctx: Context,
  bad: Complaint,
): void {
  if (!type.many) return checkReference(type.target, value, path, ctx);
  if (!Array.isArray(value)) return bad(`expected a list of references, found ${describeValue(value)}`);
  value.forEach((item, i) => checkReference(type.target, item, [...path, i], ctx));
}

/** A reference is an id of one of the target kinds in request bodies, a name or an id in the config. */
function checkReference(target: RefTarget, value: unknown, path: Path, ctx: Context): void {
  if (typeof value !== 'string' || value === '') {
    ctx.out.push({
      path,
      message: `expected a reference (a name or an id), found ${describeValue(value)}`,
      code: ErrorCode.invalidValue,
    });
    return;
  }
  if (ctx.naming !== 'write') return;
  const kind = descriptorOfId(value)?.kind;
  if (kind === undefined || !target.kinds.includes(kind)) {
    ctx.out.push({
      path,
      message: `${value} is not the id of ${anyOf(target.kinds)}`,
      code: ErrorCode.wrongIdPrefix,
    });
  }
}
