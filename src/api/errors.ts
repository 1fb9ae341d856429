/**
 * The errors of a request to the API, one class per way it fails (the server's answer, the network,
 * the attempt's timeout, an abort, the command's deadline), and which of them leave a write's
 * outcome unknown. `src/cli/render-error.ts` renders them by class.
 */
import { secondsText } from '../duration.js';
import { AcctsyncError } from '../errors.js';
import { isWriteMethod, type HttpMethod, type RequestIdentity } from './request.js';

/** Fields of an {@link ApiError}, as parsed from an error response. */
interface ApiErrorInit extends RequestIdentity {
  readonly status: number;
  readonly errorCode: string;
  readonly msg: string;
  readonly operationId: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;
}

/**
 * A request to the API that failed: the server's error, the network, the per-request timeout, an
 * abort or the command's deadline. Its message names the request and is safe to print (no headers,
 * no body, secrets redacted).
 */
export abstract class RequestError extends AcctsyncError {
  readonly method: HttpMethod;
  readonly path: string;

  constructor(request: RequestIdentity, message: string, options: ErrorOptions = {}) {
    super(`${request.method} ${request.path}: ${message}`, options);
    this.method = request.method;
    this.path = request.path;
  }
}

/** The server answered with an error status (or a success whose body could not be read). */
export class ApiError extends RequestError {
  readonly status: number;
  /** The server's code, e.g. `ERR_SVC_446`; `ERR_HTTP_<status>` when the body had none. */
  readonly errorCode: string;
  readonly msg: string;
  readonly operationId: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: ApiErrorInit, options?: ErrorOptions) {
    const operation = init.operationId === undefined ? '' : ` (operation ${init.operationId})`;
    super(init, `${init.status} ${init.errorCode}: ${init.msg}${operation}`, options);
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.msg = init.msg;
    this.operationId = init.operationId;
    this.details = init.details;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** Fields of a {@link NetworkError}. */
interface NetworkErrorInit extends RequestIdentity {
  /** The system or undici code, e.g. `ECONNRESET`, `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly code: string;
  readonly requestMayHaveBeenProcessed: boolean;
}

/** The connection failed (refused, reset, DNS, ...) before a complete response arrived. */
export class NetworkError extends RequestError {
  readonly code: string;
  /** False only when the failure happened before any byte of the request could have been sent. */
  readonly requestMayHaveBeenProcessed: boolean;

  constructor(init: NetworkErrorInit, options?: ErrorOptions) {
    const processed = init.requestMayHaveBeenProcessed
      ? 'the server may have processed the request'
      : 'the request was not sent';
    super(init, `network error ${init.code} (${processed})`, options);
    this.code = init.code;
    this.requestMayHaveBeenProcessed = init.requestMayHaveBeenProcessed;
  }
}

/** No complete response within the per-request timeout. */
export class TimeoutError extends RequestError {
  readonly code = 'ETIMEDOUT';
  /** Always true: the request may have reached the server before the deadline. */
  readonly requestMayHaveBeenProcessed = true;
  readonly timeoutMs: number;

  constructor(init: RequestIdentity & { readonly timeoutMs: number }, options?: ErrorOptions) {
    super(init, `no complete response within ${init.timeoutMs} ms`, options);
    this.timeoutMs = init.timeoutMs;
  }
}

/** The caller aborted the request (its signal or the client's signal fired); never retried. */
export class AbortError extends RequestError {
  constructor(init: RequestIdentity, options?: ErrorOptions) {
    super(init, 'aborted', options);
  }
}

/**
 * The overall deadline of the command passed while a request was waiting or in flight: retries and
 * rate-limit waits stop there. Carries the last failure of the request, if any, as the reason.
 */
export class DeadlineError extends RequestError {
  readonly deadlineMs: number;

  constructor(
    init: RequestIdentity & { readonly deadlineMs: number; readonly lastFailure?: string },
    options?: ErrorOptions,
  ) {
    const last = init.lastFailure === undefined ? '' : ` (last failure: ${init.lastFailure})`;
    super(init, `the deadline of ${secondsText(init.deadlineMs)} for this command passed${last}`, options);
    this.deadlineMs = init.deadlineMs;
  }
}

/**
 * True when a write failed in a way where the server may still have committed it: a timeout, a
 * connection lost after sending, a 5xx, or a success whose body could not be read. The caller should
 * look the object up before trying again.
 */
export function isAmbiguousWriteFailure(err: unknown): boolean {
  if (err instanceof TimeoutError) return isWriteMethod(err.method);
  if (err instanceof NetworkError) return isWriteMethod(err.method) && err.requestMayHaveBeenProcessed;
  if (err instanceof ApiError) return isWriteMethod(err.method) && (err.status >= 500 || err.status < 300);
  return false;
}
