/**
 * What an answer means: a success with its JSON body, an error status as the `ApiError` it raises
 * (from the documented error body, or the status line when the body is not of that shape), and a
 * failed attempt as the retry decision reads it.
 */
import { STATUS_CODES } from 'node:http';
import { redactJson, type Redactor } from './credentials.js';
import { secondsText } from '../duration.js';
import { ApiError, NetworkError, TimeoutError } from './errors.js';
import type { ApiResponse, ResponseHeaders } from './options.js';
import { parseRetryAfterMs, type FailedAttempt } from './pacing.js';
import type { RequestIdentity } from './request.js';

/** The parts of an error response that {@link apiErrorFromResponse} reads. */
interface ErrorResponse {
  readonly status: number;
  readonly bodyText: string;
  readonly operationIdHeader: string | undefined;
  readonly retryAfterMs: number | undefined;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function stringMember(record: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function redactOptional(text: string | undefined, redact: Redactor): string | undefined {
  return text === undefined ? undefined : redact(text);
}

/**
 * Builds an {@link ApiError} from the documented error body
 * (`{error_code, status_code, msg, details: {operation_id}}`), falling back to the status line when
 * the body is missing, not JSON or not of that shape (proxies and load balancers answer with HTML).
 * Server text is redacted too: an error about a bad key may quote the key.
 */
function apiErrorFromResponse(request: RequestIdentity, response: ErrorResponse, redact: Redactor): ApiError {
  const body = parseJsonObject(response.bodyText) ?? {};
  const rawDetails = body['details'];
  const details =
    rawDetails !== null && typeof rawDetails === 'object' && !Array.isArray(rawDetails)
      ? (redactJson(rawDetails, redact) as Record<string, unknown>)
      : {};
  const msg = stringMember(body, 'msg') ?? STATUS_CODES[response.status] ?? 'Unknown status';
  return new ApiError({
    method: request.method,
    path: request.path,
    status: response.status,
    errorCode: redact(stringMember(body, 'error_code') ?? `ERR_HTTP_${response.status}`),
    msg: redact(msg),
    operationId: stringMember(details, 'operation_id') ?? redactOptional(response.operationIdHeader, redact),
    details,
    retryAfterSeconds: response.retryAfterMs === undefined ? undefined : response.retryAfterMs / 1000,
  });
}

/** A raw response, before it is judged a success or an error. */
export interface RawResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly bodyText: string;
}

function firstHeader(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A failure in a few words, for retry reports and the deadline's message. */
export function causeOf(failure: ApiError | NetworkError | TimeoutError): string {
  if (failure instanceof ApiError) return `${failure.status} ${failure.errorCode}`;
  if (failure instanceof TimeoutError) return `no answer within ${secondsText(failure.timeoutMs)}`;
  return `network error ${failure.code}`;
}

/** A 2xx response with its JSON body parsed (`undefined` when it has none). */
export function successResponse<T>(identity: RequestIdentity, response: RawResponse): ApiResponse<T> {
  if (response.bodyText.length === 0) {
    return { status: response.status, headers: response.headers, body: undefined as T };
  }
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(response.bodyText) as T };
  } catch {
    // Committed on the server, unreadable here: an ApiError so that writes count as ambiguous.
    throw new ApiError({
      ...identity,
      status: response.status,
      errorCode: 'ERR_INVALID_RESPONSE_BODY',
      msg: 'response body is not valid JSON',
      operationId: firstHeader(response.headers, 'svc-operation-id'),
      details: {},
      retryAfterSeconds: undefined,
    });
  }
}

/** A failed attempt: the error to throw if it is not retried, and what the retry decision needs. */
export interface FailedOutcome {
  readonly failure: ApiError | NetworkError | TimeoutError;
  readonly failed: FailedAttempt;
}

/** An error status, as the error it raises and what the retry policy reads of it. */
export function statusFailure(
  identity: RequestIdentity,
  response: RawResponse,
  redact: Redactor,
): FailedOutcome {
  const retryAfterMs = parseRetryAfterMs(firstHeader(response.headers, 'retry-after'), Date.now());
  const failure = apiErrorFromResponse(
    identity,
    {
      status: response.status,
      bodyText: response.bodyText,
      operationIdHeader: firstHeader(response.headers, 'svc-operation-id'),
      retryAfterMs,
    },
    redact,
  );
  return { failure, failed: { kind: 'status', status: response.status, retryAfterMs } };
}

/** No response (timeout, network error); anything else thrown is not a failed attempt and is rethrown. */
export function transportFailure(err: unknown): FailedOutcome {
  if (err instanceof TimeoutError) return { failure: err, failed: { kind: 'timeout' } };
  if (err instanceof NetworkError) {
    return {
      failure: err,
      failed: { kind: 'network', requestMayHaveBeenProcessed: err.requestMayHaveBeenProcessed },
    };
  }
  throw err;
}
