/**
 * The checks of one scalar value against its type (`validateBody`): what is wrong with it, or
 * undefined. Nothing is allocated for a value that passes.
 */
import { ErrorCode } from './error-codes.js';
import { describeValue } from './describe-value.js';
import { checkFormat } from './format-check.js';
import { byteLength, charLength } from './formats/index.js';
import type { FieldType } from './types.js';

type FieldTypeOf<T extends FieldType['type']> = Extract<FieldType, { type: T }>;

/** What is wrong with a value; the code defaults to "invalid value". */
export interface Problem {
  readonly message: string;
  readonly code: number;
}

export function problem(message: string, code: number = ErrorCode.invalidValue): Problem {
  return { message, code };
}

export function stringProblem(type: FieldTypeOf<'string'>, value: unknown): Problem | undefined {
  if (typeof value !== 'string') return problem(`expected a string, found ${describeValue(value)}`);
  if (type.minLength !== undefined && value.length < type.minLength) return problem('must not be empty');
  // UTF-8 takes at most 3 bytes per UTF-16 unit, and a code point at least one unit: most values are
  // within their limit by `length` alone, without counting.
  if (type.maxBytes !== undefined && value.length * 3 > type.maxBytes && byteLength(value) > type.maxBytes) {
    return problem(
      `is ${byteLength(value)} bytes long; the limit is ${type.maxBytes} bytes`,
      type.tooLongCode,
    );
  }
  if (type.maxChars !== undefined && value.length > type.maxChars && charLength(value) > type.maxChars) {
    return problem(
      `is ${charLength(value)} characters long; the limit is ${type.maxChars} characters`,
      type.tooLongCode,
    );
  }
  if (type.format === undefined) return undefined;
  const reason = checkFormat(type.format, value);
  if (reason === undefined) return undefined;
  return problem(reason, type.format === 'event-type' ? ErrorCode.unknownEventType : undefined);
}

export function integerProblem(type: FieldTypeOf<'integer'>, value: unknown): Problem | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return problem(`expected a whole number, found ${describeValue(value)}`);
  }
  if (value < type.min || value > type.max)
    return problem(`must be between ${type.min} and ${type.max}, found ${value}`);
  return undefined;
}

export function numberProblem(type: FieldTypeOf<'number'>, value: unknown): Problem | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value))
    return problem(`expected a number, found ${describeValue(value)}`);
  if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) {
    return problem(
      `must be between ${type.min ?? '-∞'} and ${type.max ?? '∞'}, found ${value}`,
      type.errorCode,
    );
  }
  return undefined;
}
