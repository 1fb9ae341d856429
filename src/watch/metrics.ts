/** The daemon's Prometheus metrics, on a registry of its own (never prom-client's global one). */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ResponseEvent } from '../api/index.js';
import { packageVersion } from '../api/version.js';
import { allDescriptors } from '../resources/index.js';
import type { ReconcileRecord } from './loop.js';
import type { WatchMode } from './types.js';

/** The kinds as the config names them (`backends` holds four API kinds), each once. */
function configKinds(): string[] {
  return [...new Set(allDescriptors.flatMap((d) => (d.config ? [d.config.key] : [])))];
}

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
  readonly #ready = new Gauge({
    name: 'acctsync_ready',
    help: '1 when the last reconcile succeeded (what /readyz answers 200 for), else 0.',
    registers: [this.#registry],
  });
  readonly #drifted = new Gauge({
    name: 'acctsync_drifted_objects',
    help: 'Objects the last reconcile that reached the API found drifted, by kind as the config names it.',
    labelNames: ['kind'] as const,
    registers: [this.#registry],
  });
  readonly #standby = new Gauge({
    name: 'acctsync_standby',
    help: "1 while another process holds the scope's lease and this daemon waits to take over (docs/lease.md), else 0.",
    registers: [this.#registry],
  });
  readonly #requests = new Counter({
    name: 'acctsync_api_requests_total',
    help: 'API request attempts (retries included), by method and HTTP status ("error" when no response arrived).',
    labelNames: ['method', 'status'] as const,
    registers: [this.#registry],
  });

  constructor(mode: WatchMode = 'reconcile') {
    // Labels exist from the start so that rate() and alerts see zeros, not missing series.
    for (const result of ['success', 'invalid_config', 'refused', 'failed'])
      this.#reconciles.inc({ result }, 0);
    for (const kind of configKinds()) this.#drifted.set({ kind }, 0);
    this.#drift.inc(0);
    this.#lastSuccess.set(0);
    this.#ready.set(0);
    this.#standby.set(0);
    new Gauge({
      name: 'acctsync_build_info',
      help: 'Always 1; the labels say which acctsync runs, on which Node, in which mode.',
      labelNames: ['version', 'nodejs_version', 'mode'] as const,
      registers: [this.#registry],
    }).set({ version: packageVersion(), nodejs_version: process.versions.node, mode }, 1);
    // Unprefixed, as the standard Node.js dashboards and alerts expect (process_*, nodejs_*).
    collectDefaultMetrics({ register: this.#registry });
  }

  /** Counts a finished reconcile. */
  recordReconcile(record: ReconcileRecord): void {
    this.#standby.set(record.result.status === 'standby' ? 1 : 0);
    // A standby asking for the lease reconciled nothing: it is not counted as a reconcile.
    if (record.result.status === 'standby') return this.#ready.set(0);
    this.#reconciles.inc({ result: record.result.status });
    this.#duration.observe(record.durationMs / 1000);
    for (const op of record.result.applied) this.#operations.inc({ kind: op.kind, action: op.action });
    if (record.drift) this.#drift.inc();
    if (record.result.status === 'success') this.#lastSuccess.set(Date.now() / 1000);
    this.#ready.set(record.result.status === 'success' ? 1 : 0);
    // A config that failed to load never reached the API: what it last found still stands.
    if (record.result.status !== 'invalid_config') {
      const found = new Map<string, number>(configKinds().map((kind) => [kind, 0]));
      for (const event of record.result.drift ?? []) found.set(event.kind, (found.get(event.kind) ?? 0) + 1);
      for (const [kind, count] of found) this.#drifted.set({ kind }, count);
    }
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
