import type { ApiResponse, ResponseHeaders } from './client-options.js';
import { apiErrorFromResponse } from './error-response.js';
import { ApiError, formatMs, NetworkError, TimeoutError, type RequestIdentity } from './errors.js';
import type { Redactor } from './redact.js';
import { parseRetryAfterMs, type FailedAttempt } from './retry.js';

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
  if (failure instanceof TimeoutError) return `no answer within ${formatMs(failure.timeoutMs)}`;
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
