export { ApiClient } from './client.js';
export {
  AbortError,
  ApiError,
  DeadlineError,
  isAmbiguousWriteFailure,
  NetworkError,
  RequestError,
  TimeoutError,
} from './errors.js';
export {
  defaultConcurrency,
  describeRetry,
  packageVersion,
  type ApiClientOptions,
  type ApiKeySource,
  type ResponseEvent,
  type RetryEvent,
} from './options.js';
export { deleteIfPresent, isClaimConflict, isNotFound } from './outcomes.js';
export {
  backoffDelayMs,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
} from './pacing.js';
export type { HttpMethod } from './request.js';
export type { ServiceClock } from './service-clock.js';
