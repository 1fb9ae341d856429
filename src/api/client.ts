import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { AttemptWatch } from './attempt-watch.js';
import { AuthHeaders } from './auth-headers.js';
import {
  defaultConcurrency,
  defaultTimeoutMs,
  type ApiClientOptions,
  type ApiResponse,
  type ListOptions,
  type RequestOptions,
  type RetryEvent,
} from './client-options.js';
import { AbortError, DeadlineError, type RequestIdentity } from './errors.js';
import { ConcurrencyLimiter } from './limiter.js';
import type { HttpMethod } from './method.js';
import { listItems } from './paging.js';
import { Pacer, type Sleep } from './pacer.js';
import { createRedactor, type Redactor } from './redact.js';
import {
  causeOf,
  statusFailure,
  successResponse,
  transportFailure,
  type FailedOutcome,
  type RawResponse,
} from './response.js';
import { consumesAttempt, defaultRetryPolicy, retryDelayMs, type RetryPolicy } from './retry.js';
import { abortErrorOf, sendAttempt, type AttemptTransport } from './send-attempt.js';
import { ServiceClock } from './service-clock.js';
import { linkSignals, type LinkedSignal } from './signals.js';
import { wirePath } from './wire-path.js';

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? {} : { signal });
};

/**
 * Client of the account API: auth and version headers, JSON bodies, typed errors, retries that never
 * repeat a write the server may have committed, a cap on requests in flight, optional pacing, and
 * paging. One keep-alive connection pool for the API's origin.
 */
export class ApiClient {
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #pool: Pool;
  readonly #headers: AuthHeaders;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #limiter: ConcurrencyLimiter;
  readonly #pacer: Pacer;
  readonly #signal: AbortSignal;
  readonly #closing: AbortController;
  /** The client's signal: the caller's, closing, and the deadline when there is one. */
  readonly #deadline: LinkedSignal & { readonly ms: number };
  readonly #transport: AttemptTransport;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #sleep: Sleep;
  #redact: Redactor;
  #secrets: readonly string[];
  /** The service's time, from its answers' `Date` headers. */
  readonly serviceClock: ServiceClock;

  constructor(options: ApiClientOptions) {
    this.serviceClock = new ServiceClock(options.monotonic);
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#pathPrefix = base.pathname.replace(/\/+$/, '');
    const concurrency = options.concurrency ?? defaultConcurrency;
    this.#limiter = new ConcurrencyLimiter(concurrency);
    this.#pool = new Pool(this.#origin, { connections: concurrency });
    this.#headers = new AuthHeaders(options, (key) => this.protectSecrets([key]));
    this.#timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.#retry = { ...defaultRetryPolicy, ...options.retry };
    this.#sleep = options.sleep ?? defaultSleep;
    this.#pacer = new Pacer({
      ratePerMinute: options.ratePerMinute,
      sleep: this.#sleep,
      onPace: options.onPace,
    });
    // Closing aborts what is still queued or in flight: after one failed request ended a command, the
    // others must not keep it waiting for their own timeouts.
    this.#closing = new AbortController();
    this.#deadline = {
      ...linkSignals([options.signal, this.#closing.signal], options.deadlineMs),
      ms: options.deadlineMs ?? Infinity,
    };
    this.#signal = this.#deadline.signal;
    // Every request in flight listens on it (and detaches when done): many at once is not a leak.
    setMaxListeners(0, this.#signal);
    this.#transport = {
      pool: this.#pool,
      headers: this.#headers,
      attempts: new AttemptWatch(this.#signal),
      onResponse: options.onResponse,
      clock: this.serviceClock,
      redactor: () => this.#redact,
    };
    this.#onRetry = options.onRetry;
    this.#secrets = [options.apiKey];
    this.#redact = createRedactor(this.#secrets);
  }

  /**
   * Adds values (the desired state's secrets) to those scrubbed from every error this client
   * raises: the service may quote a rejected value in its message (`invalid client_secret ...`).
   */
  protectSecrets(values: readonly string[]): void {
    this.#secrets = [...new Set([...this.#secrets, ...values])];
    this.#redact = createRedactor(this.#secrets);
  }

  /**
   * Sends a request, retrying per the retry policy, and resolves with the parsed response.
   * @param path relative to the base URL (`/ip_policies`), or an absolute URL on the same origin
   *   (a `next_page_uri`)
   * @throws `ApiError` on an error status; `NetworkError`, `TimeoutError`, `AbortError`
   */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const identity: RequestIdentity = {
      method,
      path: wirePath(this.#origin, this.#pathPrefix, path, options.query),
    };
    // Linking costs an AbortController and listeners: only when there are two signals to link.
    if (options.signal === undefined) return this.#withRetries<T>(identity, options, this.#signal);
    const caller = linkSignals([this.#signal, options.signal]);
    try {
      return await this.#withRetries<T>(identity, options, caller.signal);
    } finally {
      caller.dispose();
    }
  }

  /** GET a resource or a list page. */
  get<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  /** POST (create, or command a tunnel session). Retried only when the server certainly did not act. */
  post<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  /** PATCH: change the members present in `body`. */
  patch<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  /** PUT: replace a module. */
  put<T>(path: string, body: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  /** DELETE; resolves with an `undefined` body on 204. */
  delete<T = undefined>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  /**
   * Yields every item of a list endpoint, following `next_page_uri` until it is null or a page is empty.
   * @param member the envelope's array member, e.g. `ip_policies`, `keys`
   */
  list<T>(path: string, member: string, options: ListOptions = {}): AsyncGenerator<T, void, undefined> {
    return listItems<T>((page, pageOptions) => this.get(page, pageOptions), path, member, options);
  }

  /** Every item of a list endpoint, all pages. */
  async listAll<T>(path: string, member: string, options: ListOptions = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this.list<T>(path, member, options)) items.push(item);
    return items;
  }

  /** Closes the connection pool once in-flight requests finish. */
  async close(): Promise<void> {
    this.#closing.abort(new Error('the client was closed'));
    this.#deadline.dispose();
    this.#transport.attempts.dispose();
    await this.#pool.close();
  }

  async #withRetries<T>(
    identity: RequestIdentity,
    options: RequestOptions,
    signal: AbortSignal | undefined,
  ): Promise<ApiResponse<T>> {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let used = 0;
    let lastFailure: string | undefined;
    let renewed = false;
    try {
      for (let attempt = 1; ; attempt++) {
        let outcome: FailedOutcome;
        const started: { ms?: number } = {};
        try {
          const response = await this.#attempt(identity, body, options, signal, attempt, started);
          if (response.status !== 429) this.#pacer.succeeded();
          if (response.status < 300) return successResponse<T>(identity, response);
          // A rotated key: the old one was revoked before this client read the new one.
          if (response.status === 401 && !renewed && this.#headers.renewable) {
            renewed = true;
            if (await this.#headers.renew()) continue;
          }
          outcome = statusFailure(identity, response, this.#redact);
        } catch (err) {
          outcome = transportFailure(err);
        }
        const { failure, failed } = outcome;
        if (failed.kind === 'status' && failed.status === 429 && started.ms !== undefined) {
          const pause =
            failed.retryAfterMs === undefined
              ? undefined
              : Math.min(failed.retryAfterMs, this.#retry.maxRetryAfterMs);
          this.#pacer.throttled(started.ms, pause);
        }
        const counted = consumesAttempt(failed);
        if (counted) used++;
        lastFailure = causeOf(failure);
        const waitMs = retryDelayMs(this.#retry, identity.method, Math.max(used, 1), failed);
        if (waitMs === undefined) throw failure;
        this.#onRetry?.({
          ...identity,
          attempt,
          attempts: this.#retry.attempts,
          cause: lastFailure,
          counted,
          waitMs,
        });
        await this.#wait(identity, signal, () => this.#sleep(waitMs, signal));
      }
    } catch (err) {
      const deadline = this.#deadline;
      if (err instanceof AbortError && deadline.timedOut()) {
        throw new DeadlineError(
          { ...identity, deadlineMs: deadline.ms, ...(lastFailure === undefined ? {} : { lastFailure }) },
          { cause: err },
        );
      }
      throw err;
    }
  }

  /** One try: take a slot, wait for the pacer (noting when it let the attempt start), send, read the whole body. */
  async #attempt(
    identity: RequestIdentity,
    body: string | undefined,
    options: Pick<RequestOptions, 'timeoutMs' | 'beforeSend'>,
    callerSignal: AbortSignal | undefined,
    attempt: number,
    started: { ms?: number },
  ): Promise<RawResponse> {
    const release = await this.#wait(identity, callerSignal, () => this.#limiter.acquire(callerSignal));
    try {
      started.ms = await this.#wait(identity, callerSignal, () => this.#pacer.waitTurn(callerSignal));
      const ms = options.timeoutMs ?? this.#timeoutMs;
      options.beforeSend?.();
      return await sendAttempt(this.#transport, identity, body, ms, callerSignal, attempt);
    } finally {
      release();
    }
  }

  /** Runs a wait (slot, pacing, backoff) and turns an abort during it into an {@link AbortError}. */
  async #wait<R>(
    identity: RequestIdentity,
    signal: AbortSignal | undefined,
    wait: () => Promise<R>,
  ): Promise<R> {
    try {
      return await wait();
    } catch (err) {
      if (signal?.aborted === true) throw this.#abortError(identity, signal);
      throw err;
    }
  }

  #abortError(identity: RequestIdentity, signal: AbortSignal): AbortError {
    return abortErrorOf(identity, signal, this.#redact);
  }
}
