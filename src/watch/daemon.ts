/**
 * The watch daemon: wires the config watcher, the reconcile loop, readiness, metrics and the HTTP
 * endpoints together. The reconcile step is handed in, so this file knows nothing of plans or APIs.
 */
import type { Logger } from 'pino';
import type { BackoffPolicy } from './backoff.js';
import { startHealthServer, type HealthServer } from './health.js';
import { ReadinessState } from './readiness.js';
import { ReconcileLoop } from './loop.js';
import type { WatchMetrics } from './metrics.js';
import type { Notifier } from './notify.js';
import type { ConfigRevision, ReconcileStep, WatchMode } from './types.js';
import { watchConfig } from './watcher.js';

interface DaemonOptions {
  /** Files and directories to watch: the config paths. */
  readonly paths: readonly string[];
  readonly reconcile: ReconcileStep;
  readonly log: Logger;
  readonly metrics: WatchMetrics;
  readonly intervalMs: number;
  readonly debounceMs: number;
  readonly backoff: BackoffPolicy;
  /** Told about every finished reconcile; absent without `--notify`. */
  readonly notifier?: Notifier;
  /** Shown on `/status`; the reconcile step is what acts on it. */
  readonly mode: WatchMode;
  /** Serve `/`, `/healthz`, `/readyz`, `/status` and `/metrics` here; no server when absent. */
  readonly listen?: { readonly host: string; readonly port: number };
  /** The API's origin, shown on `/status`. */
  readonly api?: string;
  /** The environment the daemon keeps, shown on `/status` (null there for a config without environments). */
  readonly environment?: string | undefined;
  /** This daemon as the scope's lease records it, when it takes the lease; shown on `/status` and `/`. */
  readonly leaseHolder?: string | undefined;
}

/** A running daemon. */
export interface Daemon {
  /** The endpoints' base URL, when listening. */
  readonly url: string | undefined;
  /**
   * Stops watching and scheduling, lets the running reconcile finish what it started (its signal
   * tells the applier to start nothing new), then closes the endpoints. Bounding the wait is the
   * caller's: it owns the signal that aborts requests.
   */
  stop(): Promise<void>;
  /** Reconciles as soon as it can: the scope's lease was lost, and only a reconcile tells whether this daemon is a standby now. */
  reconcileNow(): void;
}

/** Starts serving, watching and reconciling (a first reconcile at once). */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { log, metrics } = options;
  let config: ConfigRevision | undefined;
  const readiness = new ReadinessState(
    options.mode,
    () => ({
      environment: options.environment ?? null,
      ...(options.api === undefined ? {} : { api: options.api }),
      ...(config === undefined ? {} : { config }),
      ...(loop.running === undefined ? {} : { running: loop.running }),
      ...(loop.nextRun === undefined ? {} : { nextRun: loop.nextRun }),
    }),
    options.leaseHolder,
  );
  const loop = new ReconcileLoop({
    reconcile: options.reconcile,
    log,
    intervalMs: options.intervalMs,
    backoff: options.backoff,
    onStarted: () => metrics.recordStart(),
    progress: {
      config: (revision) => (config = revision),
      operation: (op) => metrics.recordOperation(op),
    },
    onSettled: (record) => {
      readiness.record(record);
      metrics.recordReconcile(record);
      options.notifier?.record(record);
    },
  });
  const server: HealthServer | undefined =
    options.listen === undefined
      ? undefined
      : await startHealthServer({ ...options.listen, readiness, metrics });
  if (server !== undefined)
    log.info(
      { url: server.url },
      'serving the status page at /, and /healthz, /readyz, /status and /metrics',
    );

  const watcher = watchConfig({
    paths: options.paths,
    debounceMs: options.debounceMs,
    onChange: (paths) => {
      log.info({ paths }, 'config changed');
      loop.request('change');
    },
    // A watcher error (a directory became unreadable) must not kill the daemon: the interval
    // resync still reloads the whole tree, and the next reload reports what is wrong with it.
    onError: (err) => log.error({ err }, 'watching the config failed'),
  });
  await watcher.ready;
  log.info({ paths: options.paths, intervalMs: options.intervalMs }, 'watching the config');
  loop.start();

  return {
    url: server?.url,
    reconcileNow: () => loop.request('retry'),
    async stop() {
      await watcher.close();
      await loop.stop();
      await options.notifier?.close();
      await server?.close();
    },
  };
}
