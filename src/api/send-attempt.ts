import type { Dispatcher } from 'undici';
import type { AttemptWatch } from './attempt-watch.js';
import type { AuthHeaders } from './auth-headers.js';
import type { ResponseEvent } from './client-options.js';
import type { ServiceClock } from './service-clock.js';
import { AbortError, TimeoutError, type RequestIdentity } from './errors.js';
import { Exchange } from './exchange.js';
import { sanitizeError, type Redactor } from './redact.js';
import type { RawResponse } from './response.js';
import { networkErrorFrom } from './transport-error.js';

/** What a client sends its attempts with; made once per client. */
export interface AttemptTransport {
  readonly pool: Dispatcher;
  readonly headers: AuthHeaders;
  readonly attempts: AttemptWatch;
  readonly onResponse: ((event: ResponseEvent) => void) | undefined;
  /** Told each answer's `Date`. */
  readonly clock: ServiceClock;
  /** The client's redactor as it is now: it grows as secrets are added. */
  redactor(): Redactor;
}

/** The error of a request its caller's signal cut. */
export function abortErrorOf(identity: RequestIdentity, signal: AbortSignal, redact: Redactor): AbortError {
  return new AbortError(identity, { cause: sanitizeError(signal.reason, redact) });
}

/**
 * Sends one attempt and reads its whole response, within `timeoutMs`.
 * @throws `AbortError` when `callerSignal` cut it, `TimeoutError`, or `NetworkError`
 */
export async function sendAttempt(
  transport: AttemptTransport,
  identity: RequestIdentity,
  body: string | undefined,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  attempt: number,
): Promise<RawResponse> {
  const exchange = new Exchange();
  const watched = transport.attempts.start(exchange, timeoutMs, callerSignal);
  const onResponse = transport.onResponse;
  const startedAt = performance.now();
  const sentAt = transport.clock.monotonic();
  const report = (status: number | 'error'): void =>
    onResponse?.({ ...identity, status, durationMs: performance.now() - startedAt, attempt });
  try {
    const headers = transport.headers.for(body);
    transport.pool.dispatch(
      { method: identity.method, path: identity.path, headers, body: body ?? null },
      exchange,
    );
    const response = await exchange.response;
    transport.clock.observe(response.headers, sentAt, transport.clock.monotonic());
    report(response.status);
    return response;
  } catch (err) {
    report('error');
    const redact = transport.redactor();
    if (callerSignal?.aborted === true) throw abortErrorOf(identity, callerSignal, redact);
    if (watched.timedOut) {
      throw new TimeoutError({ ...identity, timeoutMs }, { cause: sanitizeError(err, redact) });
    }
    throw networkErrorFrom(err, identity, redact);
  } finally {
    transport.attempts.end(watched);
  }
}
