/**
 * Notifications: a JSON POST to each `--notify` URL when drift is found or reverted, when applying
 * fails, when the config is invalid, and when the daemon recovers. A failure is sent when a failing
 * streak starts or changes status, and repeated only as a reminder after 1 h, 2 h, 4 h... (capped
 * at a day); the same observed drift is sent once until it changes, and an object reverted again
 * within the drift window is not reported again. Each URL has a queue of its own
 * (`webhook-queue.ts`): a slow or failing webhook never delays a reconcile nor another URL.
 * Payloads carry reasons and masked field changes, never diagnostics details or request bodies.
 * A reconcile the daemon's stop cut short is not news: it notifies nothing.
 */
import { counted } from '../count.js';
import type { Logger } from 'pino';
import { UsageError } from '../errors.js';
import type { BackoffPolicy, Random } from './backoff.js';
import type { DriftEvent } from './drift.js';
import type { ReconcileRecord } from './loop.js';
import { driftText, speaker, type Notification } from './notification.js';
import { notConvergingLine } from './convergence.js';
import type { WatchMode } from './types.js';
import { WebhookQueue, type DeliveryObserver } from './webhook-queue.js';

interface NotifierOptions {
  readonly urls: readonly string[];
  readonly mode: WatchMode;
  /** The environment the daemon keeps: every notification names it. */
  readonly environment?: string;
  readonly log: Logger;
  /** Per-request limit; default 5 s. */
  readonly timeoutMs?: number;
  /** Attempts per notification and URL; default 4. */
  readonly attempts?: number;
  /** Delays between attempts; default 1 s doubling to 30 s. */
  readonly backoff?: BackoffPolicy;
  /** Notifications waiting per URL before the least important are dropped; default 20. */
  readonly queueCapacity?: number;
  readonly random?: Random;
  /** First reminder of a failure that lasts; default 1 h, doubling to a day. */
  readonly reminderMs?: number;
  /** An object reverted again within this long of its last report is not reported; default 10 min. */
  readonly driftWindowMs?: number;
  readonly now?: () => number;
  /** Counts deliveries (the metrics). */
  readonly observer?: DeliveryObserver;
}

const dayMs = 24 * 60 * 60 * 1000;
/** How long an object's revert report stands for its further reverts. */
const defaultDriftWindowMs = 10 * 60 * 1000;

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

/** Sends notifications; feed it every finished reconcile with {@link Notifier.record}. */
export class Notifier {
  readonly #options: NotifierOptions;
  readonly #queues: readonly WebhookQueue[];
  readonly #stopping = new AbortController();
  /**
   * The failure last sent in the current failing streak (its status: the reason's wording varies
   * with the request that failed), when, and the wait before reminding; cleared on success.
   */
  #failureSent: { status: string; at: number; reminderMs: number } | undefined;
  /** The unreverted drift last sent; sent again only when it changes. */
  #driftSent: string | undefined;
  /** The objects not converging last sent; sent again only when they change. */
  #stuckSent: string | undefined;
  /** When each object (`kind/key`) was last reported reverted. */
  readonly #revertSent = new Map<string, number>();

  constructor(options: NotifierOptions) {
    this.#options = options;
    this.#queues = options.urls.map(
      (url, index) =>
        new WebhookQueue({
          url,
          index,
          log: options.log,
          timeoutMs: options.timeoutMs ?? 5000,
          attempts: options.attempts ?? 4,
          backoff: options.backoff ?? { baseMs: 1000, maxMs: 30_000 },
          capacity: options.queueCapacity ?? 20,
          stop: this.#stopping.signal,
          ...(options.random === undefined ? {} : { random: options.random }),
          ...(options.observer === undefined ? {} : { observer: options.observer }),
        }),
    );
  }

  /** Decides what a finished reconcile is worth telling, and queues it for every URL. */
  record(record: ReconcileRecord): void {
    if (record.result.status === 'stopped') return;
    for (const notification of this.#notificationsOf(record))
      for (const queue of this.#queues) queue.push(notification);
  }

  /** Waits for queued deliveries up to `graceMs`, then abandons the rest. */
  async close(graceMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all(this.#queues.map((q) => q.drained())), graceOver]);
    clearTimeout(timer);
    this.#stopping.abort();
    for (const queue of this.#queues) queue.abandon();
    await Promise.all(this.#queues.map((q) => q.drained()));
  }

  /** The reverted objects not reported within the drift window, now marked as reported. */
  #revertsToReport(reverted: readonly DriftEvent[], now: number): DriftEvent[] {
    const windowMs = this.#options.driftWindowMs ?? defaultDriftWindowMs;
    const fresh = reverted.filter(
      (o) => now - (this.#revertSent.get(`${o.kind}/${o.key}`) ?? -Infinity) >= windowMs,
    );
    for (const o of fresh) this.#revertSent.set(`${o.kind}/${o.key}`, now);
    for (const [object, at] of this.#revertSent) if (now - at >= windowMs) this.#revertSent.delete(object);
    return fresh;
  }

  /** Sent when the set of objects held back changes, not on every reconcile that holds them. */
  #notConvergingOf(
    result: ReconcileRecord['result'],
    base: Pick<Notification, 'at' | 'mode' | 'environment' | 'reconcile'>,
    environment: string | undefined,
  ): Notification[] {
    if (result.status !== 'success' && result.status !== 'failed') return [];
    const stuck = result.notConverging ?? [];
    const stuckKey = JSON.stringify(stuck.map((o) => [o.key, o.action, o.fields]));
    const changed = stuck.length > 0 && stuckKey !== this.#stuckSent;
    this.#stuckSent = stuck.length > 0 ? stuckKey : undefined;
    if (!changed) return [];
    return [
      {
        ...base,
        event: 'not_converging',
        text: `${speaker(environment)} ${counted(stuck.length, 'object', 'objects')} not converging, their writes held back: ${stuck.map(notConvergingLine).join('; ')}`,
        notConverging: stuck,
      },
    ];
  }

  #notificationsOf(record: ReconcileRecord): Notification[] {
    const { result } = record;
    // Waiting for another holder of the scope is the normal state of a second replica.
    if (result.status === 'standby') return [];
    const { environment } = this.#options;
    const base = {
      at: new Date(record.startedAt.getTime() + record.durationMs).toISOString(),
      mode: this.#options.mode,
      ...(environment === undefined ? {} : { environment }),
      reconcile: record.id,
    };
    const out: Notification[] = [];
    // Someone wrote a lease record no holder writes, to stop this daemon: the team must know.
    if (result.leaseForged !== undefined)
      out.push({ ...base, event: 'lease_forged', text: `${speaker(environment)} ${result.leaseForged}` });
    const drift = result.drift ?? [];
    const now = (this.#options.now ?? Date.now)();
    const reverted = this.#revertsToReport(
      drift.filter((o) => o.reverted),
      now,
    );
    if (reverted.length > 0)
      out.push({
        ...base,
        event: 'drift_reverted',
        text: driftText('drift_reverted', reverted, this.#options.mode, environment),
        objects: reverted,
      });
    const standing = drift.filter((o) => !o.reverted);
    const driftKey = JSON.stringify(standing);
    if (standing.length > 0 && driftKey !== this.#driftSent)
      out.push({
        ...base,
        event: 'drift_found',
        text: driftText('drift_found', standing, this.#options.mode, environment),
        objects: standing,
      });
    this.#driftSent = standing.length > 0 ? driftKey : undefined;
    out.push(...this.#notConvergingOf(result, base, environment));

    if (result.status === 'success') {
      if (this.#failureSent !== undefined)
        out.push({
          ...base,
          event: 'recovered',
          text: `${speaker(environment)} reconciling again after failures`,
        });
      this.#failureSent = undefined;
      return out;
    }
    const reason = result.reason ?? 'no reason given';
    const sent = this.#failureSent;
    const remind = sent?.status === result.status && now - sent.at >= sent.reminderMs;
    if (sent?.status !== result.status || remind) {
      const event = result.status === 'invalid_config' ? 'config_invalid' : 'apply_failed';
      out.push({
        ...base,
        event,
        text: `${speaker(environment)} ${event === 'config_invalid' ? 'the config is invalid' : `reconcile ${result.status}`}: ${reason}`,
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
}
