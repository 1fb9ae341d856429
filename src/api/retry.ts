import type { HttpMethod } from './method.js';

/** When and how long to wait before trying a failed request again. Plain data: log it, diff it. */
export interface RetryPolicy {
  /** Total tries, the first one included. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  /** Cap on the exponential backoff. */
  readonly maxDelayMs: number;
  /** Cap on a server's `Retry-After`, which is otherwise honoured in full. */
  readonly maxRetryAfterMs: number;
  /** Methods retried after errors that leave it unknown whether the server processed them. */
  readonly retryMethods: readonly HttpMethod[];
  readonly retryStatuses: readonly number[];
}

/**
 * Idempotent methods retry on connection errors, timeouts, 5xx and 429. POST is left out on purpose:
 * see {@link retryDelayMs} for the only cases where it is retried.
 */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  attempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 120_000,
  retryMethods: Object.freeze(['GET', 'PUT', 'PATCH', 'DELETE'] as const),
  retryStatuses: Object.freeze([429, 500, 502, 503, 504]),
});

/** How one attempt failed, as far as the retry decision cares. */
export type FailedAttempt =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs: number | undefined }
  | { readonly kind: 'network'; readonly requestMayHaveBeenProcessed: boolean }
  | { readonly kind: 'timeout' };

const TOO_MANY_REQUESTS = 429;

/**
 * A 429 that says when to come back is the server pacing us, not a failure: it does not use up an
 * attempt. The command's deadline bounds how long such waits can go on.
 */
export function consumesAttempt(failure: FailedAttempt): boolean {
  return !(
    failure.kind === 'status' &&
    failure.status === TOO_MANY_REQUESTS &&
    failure.retryAfterMs !== undefined
  );
}

/** Full-jitter exponential backoff: `random() * min(max, base * 2^retryIndex)`, retryIndex from 0. */
export function backoffDelayMs(
  policy: RetryPolicy,
  retryIndex: number,
  random: () => number = Math.random,
): number {
  return random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

/** Parses `Retry-After` (delay in seconds or an HTTP date) into milliseconds from `nowMs`. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names a day or month; without letters Date.parse would take "-1" as a year.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * Whether the server certainly did not act on the request: rate limited (refused before processing)
 * or a connection error before any byte was sent. Only then is a POST safe to repeat; anything else
 * is left to the caller, which can look the object up and recover.
 */
function certainlyNotProcessed(failure: FailedAttempt): boolean {
  switch (failure.kind) {
    case 'status':
      return failure.status === TOO_MANY_REQUESTS;
    case 'network':
      return !failure.requestMayHaveBeenProcessed;
    case 'timeout':
      return false;
  }
}

function isRetryableFailure(policy: RetryPolicy, failure: FailedAttempt): boolean {
  return failure.kind !== 'status' || policy.retryStatuses.includes(failure.status);
}

/**
 * The delay before the next attempt, or `undefined` to give up and throw.
 * @param attempt the 1-based number of the attempts used so far, the one that just failed included
 *   (a failure that does not {@link consumesAttempt} is not counted)
 */
export function retryDelayMs(
  policy: RetryPolicy,
  method: HttpMethod,
  attempt: number,
  failure: FailedAttempt,
  random: () => number = Math.random,
): number | undefined {
  if (!isRetryableFailure(policy, failure)) return undefined;
  if (attempt >= policy.attempts && consumesAttempt(failure)) return undefined;
  if (!policy.retryMethods.includes(method) && !certainlyNotProcessed(failure)) return undefined;
  if (failure.kind === 'status' && failure.retryAfterMs !== undefined) {
    return Math.min(failure.retryAfterMs, policy.maxRetryAfterMs);
  }
  return backoffDelayMs(policy, attempt - 1, random);
}
