/**
 * The deliveries to one `--notify` URL: a bounded queue and one worker. A failed attempt goes back
 * into the queue with a backoff instead of holding the worker, so a state change (a failure, a
 * recovery) waits at most for the one attempt in flight, never for a backlog of drift reports or
 * their retries. When the queue is full, drift reports are dropped before any state change.
 */
import { counted } from '../count.js';
import type { Logger } from 'pino';
import { backoffDelay, type BackoffPolicy, type Random } from './backoff.js';
import { isStateChange, mergeNotifications, type Notification } from './notification.js';
import { postJson, type PostOutcome } from './webhook-post.js';

/** Why a notification was given up. */
export type DropReason = 'given_up' | 'queue_full' | 'shutdown';

/** Told of every delivery, by URL index (`--notify` order, from 0): the metrics. */
export interface DeliveryObserver {
  delivered(urlIndex: number): void;
  attemptFailed(urlIndex: number, reason: Exclude<PostOutcome, { ok: true }>['reason']): void;
  dropped(urlIndex: number, reason: DropReason): void;
  queued(urlIndex: number, length: number): void;
}

interface WebhookQueueOptions {
  readonly url: string;
  readonly index: number;
  readonly log: Logger;
  readonly timeoutMs: number;
  readonly attempts: number;
  readonly backoff: BackoffPolicy;
  readonly capacity: number;
  /** Aborts the attempt in flight and ends the worker. */
  readonly stop: AbortSignal;
  readonly random?: Random;
  readonly observer?: DeliveryObserver;
}

interface Pending {
  notification: Notification;
  /** Failed attempts so far. */
  failed: number;
  notBefore: number;
}

/** See the module comment. */
export class WebhookQueue {
  readonly #options: WebhookQueueOptions;
  /** The URL may hold a token (Slack's do): logs show only its origin. */
  readonly #target: string;
  #pending: Pending[] = [];
  #worker: Promise<void> | undefined;
  #wake: (() => void) | undefined;

  constructor(options: WebhookQueueOptions) {
    this.#options = options;
    this.#target = new URL(options.url).origin;
    options.stop.addEventListener('abort', () => this.#wake?.(), { once: true });
  }

  /** Queues a notification and returns at once. */
  push(notification: Notification): void {
    this.#insert({ notification, failed: 0, notBefore: 0 });
    this.#worker ??= this.#work().finally(() => (this.#worker = undefined));
    this.#wake?.();
  }

  /** Resolves when nothing is queued or in flight (or the worker was stopped). */
  async drained(): Promise<void> {
    while (this.#worker !== undefined) await this.#worker;
  }

  /** Gives up what is still queued (the daemon is stopping), logging and counting it. */
  abandon(): void {
    const left = this.#pending.splice(0);
    if (left.length === 0) return;
    for (const _ of left) this.#options.observer?.dropped(this.#options.index, 'shutdown');
    this.#options.observer?.queued(this.#options.index, 0);
    this.#options.log.warn(
      { target: this.#target, urlIndex: this.#options.index, events: left.map((p) => p.notification.event) },
      `${counted(left.length, 'notification', 'notifications')} not delivered: the daemon is stopping`,
    );
  }

  /**
   * Adds `entry`, merged into a pending one of its kind when they merge (a retried entry is the
   * older of the two), then enforces the bound.
   */
  #insert(entry: Pending): void {
    const retried = entry.failed > 0;
    const merged = (p: Pending): Notification | undefined =>
      retried
        ? mergeNotifications(entry.notification, p.notification)
        : mergeNotifications(p.notification, entry.notification);
    const into = this.#pending.find((p) => merged(p) !== undefined);
    if (into !== undefined) into.notification = merged(into) ?? into.notification;
    else if (retried) this.#pending.unshift(entry);
    else this.#pending.push(entry);
    while (this.#pending.length > this.#options.capacity) this.#dropOne();
    this.#options.observer?.queued(this.#options.index, this.#pending.length);
  }

  /** Drops the oldest drift report, or the oldest state change when nothing else is queued. */
  #dropOne(): void {
    const drift = this.#pending.findIndex((p) => !isStateChange(p.notification.event));
    const [dropped] = this.#pending.splice(drift === -1 ? 0 : drift, 1);
    if (dropped === undefined) return;
    this.#options.observer?.dropped(this.#options.index, 'queue_full');
    this.#options.log.warn(
      this.#fields(dropped.notification),
      `notification dropped: more than ${this.#options.capacity} waiting for ${this.#target}`,
    );
  }

  /** State changes first and in order (the first one waits out its backoff); then drift, ready first. */
  #next(now: number): Pending | undefined {
    const state = this.#pending.find((p) => isStateChange(p.notification.event));
    if (state !== undefined && state.notBefore <= now) return state;
    return this.#pending.find((p) => !isStateChange(p.notification.event) && p.notBefore <= now);
  }

  async #work(): Promise<void> {
    const { stop } = this.#options;
    while (!stop.aborted && this.#pending.length > 0) {
      const now = Date.now();
      const entry = this.#next(now);
      if (entry === undefined) {
        await this.#sleep(Math.min(...this.#pending.map((p) => p.notBefore)) - now);
        continue;
      }
      this.#pending.splice(this.#pending.indexOf(entry), 1);
      this.#options.observer?.queued(this.#options.index, this.#pending.length);
      const body = JSON.stringify(entry.notification);
      const outcome = await postJson(this.#options.url, body, this.#options.timeoutMs, stop);
      this.#settle(entry, outcome);
    }
  }

  #settle(entry: Pending, outcome: PostOutcome): void {
    const { log, observer, index } = this.#options;
    const fields = this.#fields(entry.notification);
    if (outcome.ok) {
      observer?.delivered(index);
      log.debug(fields, 'notification sent');
      return;
    }
    observer?.attemptFailed(index, outcome.reason);
    const attempt = entry.failed + 1;
    const failure = { ...fields, attempt, cause: outcome.cause };
    if (this.#options.stop.aborted) {
      observer?.dropped(index, 'shutdown');
      log.warn(failure, 'notification not delivered: the daemon is stopping');
      return;
    }
    if (attempt >= this.#options.attempts) {
      observer?.dropped(index, 'given_up');
      log.warn(failure, 'notification not delivered');
      return;
    }
    const waitMs = backoffDelay(attempt, this.#options.backoff, this.#options.random);
    log.warn({ ...failure, retryInMs: waitMs }, 'notification attempt failed; retrying');
    this.#insert({ notification: entry.notification, failed: attempt, notBefore: Date.now() + waitMs });
  }

  #fields(notification: Notification): Record<string, unknown> {
    return {
      notification: notification.event,
      reconcile: notification.reconcile,
      target: this.#target,
      urlIndex: this.#options.index,
    };
  }

  /** Waits `ms`, or less when a notification is pushed or the daemon stops. */
  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.#wake = done;
    });
  }
}
