export { ApiClient } from './client.js';
export {
  defaultConcurrency,
  defaultTimeoutMs,
  describeRetry,
  type RetryEvent,
  type ApiClientOptions,
  type ApiResponse,
  type ListOptions,
  type Query,
  type RequestOptions,
  type ResponseEvent,
  type ResponseHeaders,
} from './client-options.js';
export {
  AbortError,
  ApiError,
  DeadlineError,
  formatMs,
  isAmbiguousWriteFailure,
  NetworkError,
  RequestError,
  TimeoutError,
  type ApiErrorInit,
  type NetworkErrorInit,
  type RequestIdentity,
} from './errors.js';
export type { ApiKeySource } from './key-source.js';
export type { HttpMethod } from './method.js';
export type { Sleep } from './pacer.js';
export { packageVersion } from './version.js';
export {
  backoffDelayMs,
  consumesAttempt,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
  type RetryPolicy,
} from './retry.js';
