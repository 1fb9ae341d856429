/**
 * The daemon's metrics of its `--notify` deliveries, by URL index (the URL's position among the
 * `--notify` flags, from 0: a webhook URL often holds a token, so it is never a label).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DeliveryObserver, DropReason } from './webhook-queue.js';

type Result = 'delivered' | DropReason;
const results: readonly Result[] = ['delivered', 'given_up', 'queue_full', 'shutdown'];
const failureReasons = ['timeout', 'error', 'status'] as const;

/** See the module comment; hand it to the notifier as its `observer`. */
export class NotificationMetrics implements DeliveryObserver {
  readonly #notifications: Counter<'url_index' | 'result'>;
  readonly #failures: Counter<'url_index' | 'reason'>;
  readonly #queue: Gauge<'url_index'>;

  constructor(registry: Registry, urlCount: number) {
    this.#notifications = new Counter({
      name: 'acctsync_notifications_total',
      help: 'Notifications by URL index and result: delivered, given_up (every attempt failed), queue_full (dropped for newer ones), shutdown.',
      labelNames: ['url_index', 'result'] as const,
      registers: [registry],
    });
    this.#failures = new Counter({
      name: 'acctsync_notification_attempt_failures_total',
      help: 'Notification POSTs that failed, by URL index and reason: timeout, error (no answer), status (not 2xx).',
      labelNames: ['url_index', 'reason'] as const,
      registers: [registry],
    });
    this.#queue = new Gauge({
      name: 'acctsync_notification_queue_length',
      help: 'Notifications waiting to be sent, by URL index.',
      labelNames: ['url_index'] as const,
      registers: [registry],
    });
    for (let index = 0; index < urlCount; index++) {
      const url_index = String(index);
      for (const result of results) this.#notifications.inc({ url_index, result }, 0);
      for (const reason of failureReasons) this.#failures.inc({ url_index, reason }, 0);
      this.#queue.set({ url_index }, 0);
    }
  }

  delivered(urlIndex: number): void {
    this.#notifications.inc({ url_index: String(urlIndex), result: 'delivered' });
  }

  attemptFailed(urlIndex: number, reason: (typeof failureReasons)[number]): void {
    this.#failures.inc({ url_index: String(urlIndex), reason });
  }

  dropped(urlIndex: number, reason: DropReason): void {
    this.#notifications.inc({ url_index: String(urlIndex), result: reason });
  }

  queued(urlIndex: number, length: number): void {
    this.#queue.set({ url_index: String(urlIndex) }, length);
  }
}
