/**
 * The API client's events as the daemon reports them. The client is shared by every reconcile, so
 * the reconcile a request belongs to is found through the async context the loop runs each one in:
 * a retry line then carries that reconcile's id and counts towards its summary.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';
import { describeRetry, type ApiClientOptions, type ResponseEvent, type RetryEvent } from '../api/index.js';
import type { ApiMetrics } from './api-metrics.js';
import type { RunningReconcile } from './progress.js';

const scope = new AsyncLocalStorage<RunningReconcile>();

/** Runs `step` so that the API requests it makes are reported as `run`'s. */
export function runWithin<T>(run: RunningReconcile, step: () => Promise<T>): Promise<T> {
  return scope.run(run, step);
}

/** The client's `onRetry`, `onResponse` and `onPace` for a daemon logging to `log` and counting in `metrics`. */
export function apiEventHandlers(
  log: Logger,
  metrics: ApiMetrics,
): Required<Pick<ApiClientOptions, 'onRetry' | 'onResponse' | 'onPace'>> {
  return {
    onRetry(event: RetryEvent) {
      metrics.recordRetry(event);
      const run = scope.getStore();
      if (run === undefined) log.debug({ retry: event }, describeRetry(event));
      else run.retried(event, describeRetry(event));
    },
    onResponse(event: ResponseEvent) {
      metrics.recordResponse(event);
      scope.getStore()?.requested();
    },
    onPace(ratePerMinute: number) {
      metrics.recordPace(ratePerMinute);
    },
  };
}
