/**
 * Notifications: a JSON POST to each `--notify` URL when drift is found or reverted, when applying
 * fails, when the config is invalid, and when the daemon recovers. A failure is sent when a failing
 * streak starts or changes status, and repeated only as a reminder after 1 h, 2 h, 4 h... (capped
 * at a day); the same observed drift is sent once until it changes. Deliveries run in the
 * background with retries and a backoff: a slow or failing webhook never delays a reconcile.
 * Payloads carry reasons and masked field changes, never diagnostics details or request bodies.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { UsageError } from '../errors.js';
import { backoffDelay, type BackoffPolicy, type Random } from './backoff.js';
import type { DriftEvent } from './drift.js';
import type { ReconcileRecord } from './loop.js';
import type { WatchMode } from './types.js';

export type NotificationType =
  'drift_found' | 'drift_reverted' | 'apply_failed' | 'config_invalid' | 'recovered';

/** The body POSTed to every URL; `text` makes it a valid Slack incoming-webhook message. */
export interface Notification {
  readonly event: NotificationType;
  readonly text: string;
  readonly at: string;
  readonly mode: WatchMode;
  readonly reconcile: string;
  /** The reconcile's status and one-line reason, for failures. */
  readonly status?: string;
  readonly reason?: string;
  /** Consecutive failures: for `recovered`, how many there were. */
  readonly failures?: number;
  readonly objects?: readonly DriftEvent[];
}

export interface NotifierOptions {
  readonly urls: readonly string[];
  readonly mode: WatchMode;
  readonly log: Logger;
  /** Per-request limit; default 5 s. */
  readonly timeoutMs?: number;
  /** Attempts per notification and URL; default 4. */
  readonly attempts?: number;
  /** Delays between attempts; default 1 s doubling to 30 s. */
  readonly backoff?: BackoffPolicy;
  readonly random?: Random;
  /** First reminder of a failure that lasts; default 1 h, doubling to a day. */
  readonly reminderMs?: number;
  readonly now?: () => number;
}

const dayMs = 24 * 60 * 60 * 1000;

/** `--notify` values: http(s) URLs only, checked before the daemon starts. */
export function parseNotifyUrls(values: readonly string[]): string[] {
  return values.map((value) => {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new UsageError(`watch: --notify ${value} is not an http(s) URL`);
    return url.href;
  });
}

const objectList = (objects: readonly DriftEvent[]): string =>
  objects.map((o) => `${o.key} (${o.changes.map((c) => c.field).join(', ') || o.action})`).join('; ');

/** Sends notifications; feed it every finished reconcile with {@link Notifier.record}. */
export class Notifier {
  readonly #options: NotifierOptions;
  /** Per URL, the last delivery queued: each URL gets its events one at a time, in order. */
  readonly #queues = new Map<string, Promise<void>>();
  readonly #stopping = new AbortController();
  /**
   * The failure last sent in the current failing streak (its status: the reason's wording varies
   * with the request that failed), when, and the wait before reminding; cleared on success.
   */
  #failureSent: { status: string; at: number; reminderMs: number } | undefined;
  /** The unreverted drift last sent; sent again only when it changes. */
  #driftSent: string | undefined;

  constructor(options: NotifierOptions) {
    this.#options = options;
  }

  /** Decides what a finished reconcile is worth telling, and sends it in the background. */
  record(record: ReconcileRecord): void {
    for (const notification of this.#notificationsOf(record)) {
      for (const url of this.#options.urls) {
        const previous = this.#queues.get(url) ?? Promise.resolve();
        this.#queues.set(
          url,
          previous.then(() => this.#deliver(url, notification)),
        );
      }
    }
  }

  /** Waits for deliveries in flight up to `graceMs`, then abandons the rest. */
  async close(graceMs = 5000): Promise<void> {
    const timer = setTimeout(() => this.#stopping.abort(), graceMs);
    await Promise.allSettled([...this.#queues.values()]);
    clearTimeout(timer);
  }

  #notificationsOf(record: ReconcileRecord): Notification[] {
    const { result } = record;
    // Waiting for another holder of the scope is the normal state of a second replica.
    if (result.status === 'standby') return [];
    const base = {
      at: new Date(record.startedAt.getTime() + record.durationMs).toISOString(),
      mode: this.#options.mode,
      reconcile: record.id,
    };
    const out: Notification[] = [];
    const drift = result.drift ?? [];
    const reverted = drift.filter((o) => o.reverted);
    if (reverted.length > 0)
      out.push({
        ...base,
        event: 'drift_reverted',
        text: `acctsync: reverted ${reverted.length} object(s) changed outside the config: ${objectList(reverted)}`,
        objects: reverted,
      });
    const standing = drift.filter((o) => !o.reverted);
    const driftKey = JSON.stringify(standing);
    if (standing.length > 0 && driftKey !== this.#driftSent)
      out.push({
        ...base,
        event: 'drift_found',
        text: `acctsync: ${standing.length} object(s) differ from the config${this.#options.mode === 'observe' ? ' (observe mode: not reverted)' : ''}: ${objectList(standing)}`,
        objects: standing,
      });
    this.#driftSent = standing.length > 0 ? driftKey : undefined;

    if (result.status === 'success') {
      if (this.#failureSent !== undefined)
        out.push({
          ...base,
          event: 'recovered',
          text: 'acctsync: reconciling again after failures',
        });
      this.#failureSent = undefined;
      return out;
    }
    const reason = result.reason ?? 'no reason given';
    const now = (this.#options.now ?? Date.now)();
    const sent = this.#failureSent;
    const remind = sent?.status === result.status && now - sent.at >= sent.reminderMs;
    if (sent?.status !== result.status || remind) {
      const event = result.status === 'invalid_config' ? 'config_invalid' : 'apply_failed';
      out.push({
        ...base,
        event,
        text: `acctsync: ${event === 'config_invalid' ? 'the config is invalid' : `reconcile ${result.status}`}: ${reason}`,
        status: result.status,
        reason,
        failures: record.failures,
      });
      const firstReminderMs = this.#options.reminderMs ?? 60 * 60 * 1000;
      this.#failureSent = {
        status: result.status,
        at: now,
        reminderMs: remind ? Math.min(dayMs, sent.reminderMs * 2) : firstReminderMs,
      };
    }
    return out;
  }

  async #deliver(url: string, notification: Notification): Promise<void> {
    const { log, random } = this.#options;
    const attempts = this.#options.attempts ?? 4;
    const backoff = this.#options.backoff ?? { baseMs: 1000, maxMs: 30_000 };
    const body = JSON.stringify(notification);
    // The URL may hold a token (Slack's do): log only its origin.
    const target = new URL(url).origin;
    for (let attempt = 1; ; attempt++) {
      let cause: string;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
          signal: AbortSignal.any([
            AbortSignal.timeout(this.#options.timeoutMs ?? 5000),
            this.#stopping.signal,
          ]),
        });
        await res.body?.cancel();
        if (res.ok) {
          log.debug({ notification: notification.event, target }, 'notification sent');
          return;
        }
        cause = `HTTP ${res.status}`;
      } catch (err) {
        cause = err instanceof Error ? err.message : String(err);
      }
      if (attempt >= attempts || this.#stopping.signal.aborted) {
        log.warn({ notification: notification.event, target, attempt, cause }, 'notification not delivered');
        return;
      }
      const waitMs = backoffDelay(attempt, backoff, random);
      log.debug({ notification: notification.event, target, attempt, cause, waitMs }, 'notification retry');
      await sleep(waitMs, undefined, { signal: this.#stopping.signal }).catch(() => undefined);
    }
  }
}
