/** The daemon's Prometheus metrics, on a registry of its own (never prom-client's global one). */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResponseEvent } from '../api/index.js';
import type { ReconcileRecord } from './loop.js';

/**
 * Reconciles run from well under a second (nothing to do) to minutes (a large first sync under a
 * rate limit of 120 requests a minute), so the buckets span 50 ms to 10 min.
 */
const durationBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];

/** Metrics of one daemon; `record*` methods feed them, {@link WatchMetrics.render} exposes them. */
export class WatchMetrics {
  readonly #registry = new Registry();
  readonly #reconciles = new Counter({
    name: 'acctsync_reconciles_total',
    help: 'Reconciles finished, by result (success, invalid_config, refused, failed).',
    labelNames: ['result'] as const,
    registers: [this.#registry],
  });
  readonly #duration = new Histogram({
    name: 'acctsync_reconcile_duration_seconds',
    help: 'Wall time of a reconcile: load, plan, guards and apply.',
    buckets: durationBuckets,
    registers: [this.#registry],
  });
  readonly #operations = new Counter({
    name: 'acctsync_operations_applied_total',
    help: 'Plan operations carried out, by resource kind and action.',
    labelNames: ['kind', 'action'] as const,
    registers: [this.#registry],
  });
  readonly #drift = new Counter({
    name: 'acctsync_drift_detected_total',
    help: 'Interval resyncs, with no config change since the last success, that found the account changed.',
    registers: [this.#registry],
  });
  readonly #lastSuccess = new Gauge({
    name: 'acctsync_last_success_timestamp_seconds',
    help: 'Unix time at which the last successful reconcile finished; 0 before the first.',
    registers: [this.#registry],
  });
  readonly #requests = new Counter({
    name: 'acctsync_api_requests_total',
    help: 'API request attempts (retries included), by method and HTTP status ("error" when no response arrived).',
    labelNames: ['method', 'status'] as const,
    registers: [this.#registry],
  });

  constructor() {
    // Result labels exist from the start so that rate() and alerts see zeros, not missing series.
    for (const result of ['success', 'invalid_config', 'refused', 'failed'])
      this.#reconciles.inc({ result }, 0);
    this.#drift.inc(0);
    this.#lastSuccess.set(0);
    collectDefaultMetrics({ register: this.#registry, prefix: 'acctsync_' });
  }

  /** Counts a finished reconcile. */
  recordReconcile(record: ReconcileRecord): void {
    this.#reconciles.inc({ result: record.result.status });
    this.#duration.observe(record.durationMs / 1000);
    for (const op of record.result.applied) this.#operations.inc({ kind: op.kind, action: op.action });
    if (record.drift) this.#drift.inc();
    if (record.result.status === 'success') this.#lastSuccess.set(Date.now() / 1000);
  }

  /** Counts one API attempt; pass as the client's `onResponse`. */
  recordResponse(event: ResponseEvent): void {
    this.#requests.inc({ method: event.method, status: String(event.status) });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ readonly contentType: string; readonly text: string }> {
    return { contentType: this.#registry.contentType, text: await this.#registry.metrics() };
  }
}
