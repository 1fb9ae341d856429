/** Why the API client retried a request, in the few classes an operator alerts on. */
import type { RetryEvent } from '../api/index.js';

export type RetryReason = 'rate_limited' | 'server_error' | 'timeout' | 'network';

/**
 * The class of a retry. A 429 with `Retry-After` does not use up an attempt (`counted` false): the
 * server pacing us. The rest is read off the client's cause (`503 ERR_...`, `no answer within 6 s`,
 * `network error ECONNRESET`).
 */
export function retryReason(event: RetryEvent): RetryReason {
  if (!event.counted || event.cause.startsWith('429 ')) return 'rate_limited';
  if (/^\d{3} /.test(event.cause)) return 'server_error';
  if (event.cause.startsWith('no answer')) return 'timeout';
  return 'network';
}
