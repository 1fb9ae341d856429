export { ApiClient } from './client.js';
export {
  defaultConcurrency,
  describeRetry,
  type RetryEvent,
  type ApiClientOptions,
  type ResponseEvent,
} from './client-options.js';
export {
  AbortError,
  ApiError,
  DeadlineError,
  isAmbiguousWriteFailure,
  NetworkError,
  RequestError,
  TimeoutError,
} from './errors.js';
export type { ApiKeySource } from './key-source.js';
export { deleteIfPresent, isClaimConflict, isNotFound } from './outcomes.js';
export type { HttpMethod } from './method.js';
export {
  backoffDelayMs,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
} from './retry.js';
export type { ServiceClock } from './service-clock.js';
export { packageVersion } from './version.js';
