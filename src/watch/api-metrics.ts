/**
 * The daemon's metrics of its API traffic: attempts, latency, retries, rate-limit waits, the pace
 * the client holds itself to, and the requests each reconcile made.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ResponseEvent, RetryEvent } from '../api/index.js';
import { retryReason, type RetryReason } from './retry-reason.js';

/** A healthy API answers in tens of milliseconds; the client's timeout is 6 s by default. */
const latencyBuckets = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const reasons: readonly RetryReason[] = ['rate_limited', 'server_error', 'timeout', 'network'];
/** A reconcile of a small account makes a few dozen requests; the budget is about 120 a minute. */
const requestBuckets = [5, 10, 20, 50, 100, 200, 500, 1000, 2000];

/** See the module comment; feed it through `apiEventHandlers` (`api-events.ts`). */
export class ApiMetrics {
  readonly #requests: Counter<'method' | 'status'>;
  readonly #latency: Histogram<'method'>;
  readonly #retries: Counter<'reason'>;
  readonly #rateLimitWait: Counter;
  readonly #pace: Gauge;
  readonly #perReconcile: Histogram;

  constructor(registry: Registry) {
    this.#requests = new Counter({
      name: 'acctsync_api_requests_total',
      help: 'API request attempts (retries included), by method and HTTP status ("error" when no response arrived).',
      labelNames: ['method', 'status'] as const,
      registers: [registry],
    });
    this.#latency = new Histogram({
      name: 'acctsync_api_request_duration_seconds',
      help: 'Time from sending an API request attempt to having read its whole response, by method.',
      labelNames: ['method'] as const,
      buckets: latencyBuckets,
      registers: [registry],
    });
    this.#retries = new Counter({
      name: 'acctsync_api_retries_total',
      help: 'API requests retried, by reason (rate_limited, server_error, timeout, network).',
      labelNames: ['reason'] as const,
      registers: [registry],
    });
    this.#rateLimitWait = new Counter({
      name: 'acctsync_api_rate_limit_wait_seconds_total',
      help: "Seconds spent waiting on the API's Retry-After after a 429.",
      registers: [registry],
    });
    this.#pace = new Gauge({
      name: 'acctsync_api_pace_requests_per_minute',
      help: 'The pace the daemon holds its API requests to: lowered by each 429, raised again by successes, at most --rate-limit (+Inf while unpaced).',
      registers: [registry],
    });
    this.#perReconcile = new Histogram({
      name: 'acctsync_reconcile_api_requests',
      help: 'API request attempts (retries included) made by one reconcile.',
      buckets: requestBuckets,
      registers: [registry],
    });
    for (const reason of reasons) this.#retries.inc({ reason }, 0);
    this.#rateLimitWait.inc(0);
    this.#pace.set(Infinity);
  }

  /** The client's pace changed. */
  recordPace(ratePerMinute: number): void {
    this.#pace.set(ratePerMinute);
  }

  /** A reconcile finished, having made `requests` attempts. */
  recordReconcileRequests(requests: number): void {
    this.#perReconcile.observe(requests);
  }

  /** Counts one attempt and its latency. */
  recordResponse(event: ResponseEvent): void {
    this.#requests.inc({ method: event.method, status: String(event.status) });
    this.#latency.observe({ method: event.method }, event.durationMs / 1000);
  }

  /** Counts a retry, and the wait when the server asked for it. */
  recordRetry(event: RetryEvent): void {
    const reason = retryReason(event);
    this.#retries.inc({ reason });
    if (reason === 'rate_limited') this.#rateLimitWait.inc(event.waitMs / 1000);
  }
}
