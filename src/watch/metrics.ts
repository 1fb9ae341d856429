/** The daemon's Prometheus metrics, on a registry of its own (never prom-client's global one). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { packageVersion } from '../api/index.js';
import type { KindRegistry } from '../resources/index.js';
import { ApiMetrics } from './api-metrics.js';
import type { ReconcileRecord } from './loop.js';
import { NotificationMetrics } from './notification-metrics.js';
import type { AppliedOperation, OperationOutcome, ReconcileStatus, WatchMode } from './types.js';

/** The kinds as the config names them (`backends` holds four API kinds), each once. */
function configKinds(kinds: KindRegistry): string[] {
  return [...new Set(kinds.managed.flatMap((d) => (d.config ? [d.config.key] : [])))];
}

/**
 * Reconciles run from well under a second (nothing to do) to minutes (a large first sync under a
 * rate limit of 120 requests a minute), so the buckets span 50 ms to 10 min.
 */
const durationBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600];
const statuses: readonly ReconcileStatus[] = ['success', 'invalid_config', 'refused', 'failed', 'stopped'];
const outcomes: readonly OperationOutcome[] = ['succeeded', 'failed', 'not_attempted', 'stopped'];

/**
 * Drops prom-client's default gauges named `*_total` (`nodejs_active_handles_total`...): a `_total`
 * suffix promises a counter, and `rate()` over a gauge is wrong without warning. The same values
 * stay available, by type, in the gauges without the suffix (`sum(nodejs_active_handles)`).
 */
function dropTotalGauges(registry: Registry): void {
  for (const metric of registry.getMetricsAsArray())
    if (metric instanceof Gauge && metric.name.endsWith('_total')) registry.removeSingleMetric(metric.name);
}

/** Metrics of one daemon; `record*` methods feed them, {@link WatchMetrics.render} exposes them. */
export class WatchMetrics {
  readonly #registry = new Registry();
  /** The kinds as the config names them. */
  readonly #configKinds: readonly string[];
  readonly #reconciles = new Counter({
    name: 'acctsync_reconciles_total',
    help: 'Reconciles finished, by result (success, invalid_config, refused, failed, stopped).',
    labelNames: ['result'] as const,
    registers: [this.#registry],
  });
  readonly #duration = new Histogram({
    name: 'acctsync_reconcile_duration_seconds',
    help: 'Wall time of a reconcile (load, plan, guards and apply), by trigger and result.',
    labelNames: ['trigger', 'result'] as const,
    buckets: durationBuckets,
    registers: [this.#registry],
  });
  readonly #applied = new Counter({
    name: 'acctsync_operations_applied_total',
    help: 'Plan operations carried out, by resource kind and action.',
    labelNames: ['kind', 'action'] as const,
    registers: [this.#registry],
  });
  readonly #operations = new Counter({
    name: 'acctsync_operations_total',
    help: 'Plan operations as they finish, by kind, action and outcome (succeeded, failed, not_attempted, stopped).',
    labelNames: ['kind', 'action', 'outcome'] as const,
    registers: [this.#registry],
  });
  readonly #inProgress = new Gauge({
    name: 'acctsync_reconcile_in_progress',
    help: '1 while a reconcile runs, else 0.',
    registers: [this.#registry],
  });
  readonly #lastAttempt = new Gauge({
    name: 'acctsync_last_attempt_timestamp_seconds',
    help: 'Unix time at which the last reconcile finished, whatever its result; 0 before the first.',
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
  readonly #notConverging = new Gauge({
    name: 'acctsync_not_converging_objects',
    help: 'Objects whose same write was sent twice on consecutive reconciles and planned again: held back, not sent, until the config or the live value changes; by kind as the config names it.',
    labelNames: ['kind'] as const,
    registers: [this.#registry],
  });
  readonly #standby = new Gauge({
    name: 'acctsync_standby',
    help: "1 while another process holds the scope's lease and this daemon waits to take over (docs/lease.md), else 0.",
    registers: [this.#registry],
  });
  /** The API client's traffic. */
  readonly api = new ApiMetrics(this.#registry);
  readonly #keyRotations = new Counter({
    name: 'acctsync_api_key_rotations_total',
    help: 'New API keys read from --api-key-file, by cause (file_changed, unauthorized: read again after a 401).',
    labelNames: ['cause'] as const,
    registers: [this.#registry],
  });

  /**
   * `kinds`: the kinds the daemon manages, each section of the config that holds them with its
   * series from the start. `environment`, for a config that declares environments, labels every
   * series (`environment="production"`).
   */
  constructor(kinds: KindRegistry, mode: WatchMode = 'reconcile', environment?: string) {
    this.#configKinds = configKinds(kinds);
    if (environment !== undefined) this.#registry.setDefaultLabels({ environment });
    // Labels exist from the start so that rate() and alerts see zeros, not missing series.
    for (const result of statuses) this.#reconciles.inc({ result }, 0);
    for (const kind of this.#configKinds)
      for (const action of ['create', 'update', 'delete'])
        for (const outcome of outcomes) this.#operations.inc({ kind, action, outcome }, 0);
    for (const kind of this.#configKinds) this.#drifted.set({ kind }, 0);
    for (const kind of this.#configKinds) this.#notConverging.set({ kind }, 0);
    this.#drift.inc(0);
    for (const cause of ['file_changed', 'unauthorized']) this.#keyRotations.inc({ cause }, 0);
    this.#lastSuccess.set(0);
    this.#lastAttempt.set(0);
    this.#inProgress.set(0);
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
    dropTotalGauges(this.#registry);
  }

  /** The metrics of `urlCount` `--notify` URLs. */
  notifications(urlCount: number): NotificationMetrics {
    return new NotificationMetrics(this.#registry, urlCount);
  }

  /** A reconcile started. */
  recordStart(): void {
    this.#inProgress.set(1);
  }

  /** Counts an operation as it finishes, so progress shows while a long apply runs. */
  recordOperation(op: AppliedOperation & { readonly outcome: OperationOutcome }): void {
    this.#operations.inc({ kind: op.kind, action: op.action, outcome: op.outcome });
    if (op.outcome === 'succeeded') this.#applied.inc({ kind: op.kind, action: op.action });
  }

  /** Counts a finished reconcile. */
  recordReconcile(record: ReconcileRecord): void {
    const { status } = record.result;
    this.#inProgress.set(0);
    this.#standby.set(status === 'standby' ? 1 : 0);
    // A standby asking for the lease reconciled nothing: it is not counted as a reconcile.
    if (status === 'standby') return this.#ready.set(0);
    this.#reconciles.inc({ result: status });
    this.#duration.observe({ trigger: record.trigger, result: status }, record.durationMs / 1000);
    this.api.recordReconcileRequests(record.apiRequests);
    this.#lastAttempt.set(Date.now() / 1000);
    if (record.drift) this.#drift.inc();
    if (status === 'success') this.#lastSuccess.set(Date.now() / 1000);
    // A stop says nothing of the account; what the last reconcile found still stands.
    if (status === 'stopped') return;
    this.#ready.set(status === 'success' ? 1 : 0);
    // A config that failed to load never reached the API: what it last found still stands.
    if (status !== 'invalid_config') {
      const found = new Map<string, number>(this.#configKinds.map((kind) => [kind, 0]));
      for (const event of record.result.drift ?? []) found.set(event.kind, (found.get(event.kind) ?? 0) + 1);
      for (const [kind, count] of found) this.#drifted.set({ kind }, count);
      const stuck = new Map<string, number>(this.#configKinds.map((kind) => [kind, 0]));
      for (const o of record.result.notConverging ?? []) stuck.set(o.kind, (stuck.get(o.kind) ?? 0) + 1);
      for (const [kind, count] of stuck) this.#notConverging.set({ kind }, count);
    }
  }

  /** `--api-key-file` held a new key. */
  recordKeyRotation(cause: 'file_changed' | 'unauthorized'): void {
    this.#keyRotations.inc({ cause });
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ readonly contentType: string; readonly text: string }> {
    return { contentType: this.#registry.contentType, text: await this.#registry.metrics() };
  }
}
