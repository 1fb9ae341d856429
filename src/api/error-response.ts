import { STATUS_CODES } from 'node:http';
import { ApiError, type RequestIdentity } from './errors.js';
import { redactJson, type Redactor } from './redact.js';

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
export function apiErrorFromResponse(
  request: RequestIdentity,
  response: ErrorResponse,
  redact: Redactor,
): ApiError {
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
