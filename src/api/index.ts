export {
  ApiClient,
  defaultConcurrency,
  type ApiClientOptions,
  type ApiResponse,
  type ListOptions,
  type Query,
  type RequestOptions,
  type ResponseEvent,
  type ResponseHeaders,
} from './client.js';
export {
  AbortError,
  ApiError,
  isAmbiguousWriteFailure,
  NetworkError,
  TimeoutError,
  type ApiErrorInit,
  type NetworkErrorInit,
  type RequestIdentity,
} from './errors.js';
export type { HttpMethod } from './method.js';
export type { Sleep } from './pacer.js';
export { packageVersion } from './version.js';
export {
  backoffDelayMs,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
  type RetryPolicy,
} from './retry.js';
