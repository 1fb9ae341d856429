/**
 * The one error type of the emulator's request handling: everything that answers a 4xx/5xx throws
 * it, and the HTTP edge turns it into the gaps.md body.
 */
import { ErrorCode, type Violation } from '../resources/index.js';

export class ApiFailure extends Error {
  readonly status: number;
  readonly code: number;
  /** Merged into the body's `details` next to `operation_id`. */
  readonly details: Readonly<Record<string, unknown>>;
  /** Extra response headers (`Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: number,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
    this.details = details;
    this.headers = headers;
  }
}

export function notFound(): ApiFailure {
  return new ApiFailure(404, ErrorCode.notFound, 'Resource not found');
}

export function badRequest(code: number, message: string, details: Record<string, unknown> = {}): ApiFailure {
  return new ApiFailure(400, code, message, details);
}

/** A failed validation answers its first violation, naming the offending member. */
export function fromViolations(
  violations: readonly Violation[],
  prefix: readonly (string | number)[] = [],
): ApiFailure | undefined {
  const first = violations[0];
  if (first === undefined) return undefined;
  const path = [...prefix, ...first.path].join('.');
  return badRequest(first.code, path === '' ? first.message : `${path}: ${first.message}`, {
    field: path,
    problems: violations.map((v) => ({ field: [...prefix, ...v.path].join('.'), msg: v.message })),
  });
}
