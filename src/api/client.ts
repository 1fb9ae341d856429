/**
 * The client of the account API: what it and the clients derived from it share (the connection,
 * the keys and secrets it scrubs), each request's course from its first attempt to the answer or
 * the error (slots, pacing, retries, the deadline), and the pages of a list followed to the end.
 * The parts it composes live beside it: `attempt.ts`, `response.ts`, `pacing.ts`, `credentials.ts`.
 */
import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  abortErrorOf,
  AttemptWatch,
  linkSignals,
  sendAttempt,
  type AttemptTransport,
  type LinkedSignal,
} from './attempt.js';
import { AuthHeaders, createRedactor, type Redactor } from './credentials.js';
import { AbortError, ApiError, DeadlineError } from './errors.js';
import {
  defaultConcurrency,
  defaultTimeoutMs,
  type ApiClientOptions,
  type ApiResponse,
  type ListOptions,
  type RequestOptions,
  type RetryEvent,
} from './options.js';
import {
  ConcurrencyLimiter,
  consumesAttempt,
  defaultRetryPolicy,
  Pacer,
  retryDelayMs,
  type RetryPolicy,
  type Sleep,
} from './pacing.js';
import { wirePath, type HttpMethod, type RequestIdentity } from './request.js';
import {
  causeOf,
  statusFailure,
  successResponse,
  transportFailure,
  type FailedOutcome,
  type RawResponse,
} from './response.js';
import { ServiceClock } from './service-clock.js';

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? {} : { signal });
};

/** A set of values scrubbed from errors; `version` changes whenever one is added. */
interface Scrubbed {
  values: readonly string[];
  version: number;
}

/**
 * What a client and the clients derived from it (`withSecrets`) share: the connections, the cap on
 * requests in flight, the pacing, the key and its renewals, the deadline and the service's clock.
 */
interface Connection {
  readonly origin: string;
  readonly pathPrefix: string;
  readonly pool: Pool;
  readonly headers: AuthHeaders;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  readonly limiter: ConcurrencyLimiter;
  readonly pacer: Pacer;
  readonly closing: AbortController;
  /** The client's signal: the caller's, closing, and the deadline when there is one. */
  readonly deadline: LinkedSignal & { readonly ms: number };
  readonly signal: AbortSignal;
  readonly attempts: AttemptWatch;
  readonly onResponse: ApiClientOptions['onResponse'];
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  readonly sleep: Sleep;
  readonly serviceClock: ServiceClock;
  /** The API key, and each key a rotated key file held since. */
  readonly keys: Scrubbed;
}

function connect(options: ApiClientOptions): Connection {
  const base = new URL(options.baseUrl);
  const origin = base.origin;
  const concurrency = options.concurrency ?? defaultConcurrency;
  const sleep = options.sleep ?? defaultSleep;
  const keys: Scrubbed = { values: [options.apiKey], version: 0 };
  // Closing aborts what is still queued or in flight: after one failed request ended a command, the
  // others must not keep it waiting for their own timeouts.
  const closing = new AbortController();
  const deadline = {
    ...linkSignals([options.signal, closing.signal], options.deadlineMs),
    ms: options.deadlineMs ?? Infinity,
  };
  // Every request in flight listens on it (and detaches when done): many at once is not a leak.
  setMaxListeners(0, deadline.signal);
  return {
    origin,
    pathPrefix: base.pathname.replace(/\/+$/, ''),
    pool: new Pool(origin, { connections: concurrency }),
    headers: new AuthHeaders(options, (key) => {
      keys.values = [...new Set([...keys.values, key])];
      keys.version += 1;
    }),
    timeoutMs: options.timeoutMs ?? defaultTimeoutMs,
    retry: { ...defaultRetryPolicy, ...options.retry },
    limiter: new ConcurrencyLimiter(concurrency),
    pacer: new Pacer({ ratePerMinute: options.ratePerMinute, sleep, onPace: options.onPace }),
    closing,
    deadline,
    signal: deadline.signal,
    attempts: new AttemptWatch(deadline.signal),
    onResponse: options.onResponse,
    onRetry: options.onRetry,
    sleep,
    serviceClock: new ServiceClock(options.monotonic),
    keys,
  };
}

const MAX_PAGE_SIZE = 100;

/** How {@link listItems} fetches one page. */
type GetPage = (
  path: string,
  options: Omit<RequestOptions, 'body'>,
) => Promise<ApiResponse<Record<string, unknown> | undefined>>;

/** A list response acctsync cannot follow: a protocol error of the server, not a user mistake. */
function invalidListError(path: string, status: number, problem: string): ApiError {
  return new ApiError({
    method: 'GET',
    path,
    status,
    errorCode: 'ERR_INVALID_LIST_RESPONSE',
    msg: `list response has ${problem}`,
    operationId: undefined,
    details: {},
    retryAfterSeconds: undefined,
  });
}

/**
 * Yields every item of a list endpoint, following `next_page_uri` until it is null or a page is empty.
 * @param member the envelope's array member, e.g. `ip_policies`, `keys`
 */
async function* listItems<T>(
  get: GetPage,
  path: string,
  member: string,
  options: ListOptions,
): AsyncGenerator<T, void, undefined> {
  const signalOption = options.signal === undefined ? {} : { signal: options.signal };
  let page = await get(path, { ...signalOption, query: { limit: options.limit ?? MAX_PAGE_SIZE } });
  // A server that hands out a cursor twice would otherwise keep us paging forever.
  const seen = new Set<string>();
  for (;;) {
    const items = page.body?.[member];
    if (!Array.isArray(items)) throw invalidListError(path, page.status, `no array member '${member}'`);
    if (items.length === 0) return;
    yield* items as T[];
    const next = page.body?.['next_page_uri'];
    if (typeof next !== 'string') return;
    if (seen.has(next)) throw invalidListError(path, page.status, 'next_page_uri repeats an earlier page');
    seen.add(next);
    page = await get(next, signalOption);
  }
}

/**
 * Client of the account API: auth and version headers, JSON bodies, typed errors, retries that never
 * repeat a write the server may have committed, a cap on requests in flight, optional pacing, and
 * paging. One keep-alive connection pool for the API's origin.
 */
export class ApiClient {
  readonly #c: Connection;
  readonly #transport: AttemptTransport;
  /** Values this client scrubs besides the keys: the desired state's secrets (`withSecrets`). */
  readonly #secrets: readonly string[];
  #redact: Redactor;
  /** The `keys.version` {@link #redact} was built at. */
  #redactVersion: number;
  /** The service's time, from its answers' `Date` headers. */
  readonly serviceClock: ServiceClock;

  constructor(
    options: ApiClientOptions | { readonly derivedFrom: Connection; readonly secrets: readonly string[] },
  ) {
    const derived = 'derivedFrom' in options;
    this.#c = derived ? options.derivedFrom : connect(options);
    this.#secrets = derived ? options.secrets : [];
    this.serviceClock = this.#c.serviceClock;
    this.#redactVersion = this.#c.keys.version;
    this.#redact = createRedactor([...this.#c.keys.values, ...this.#secrets]);
    this.#transport = {
      pool: this.#c.pool,
      headers: this.#c.headers,
      attempts: this.#c.attempts,
      onResponse: this.#c.onResponse,
      clock: this.#c.serviceClock,
      redactor: () => this.#redactor(),
    };
  }

  /**
   * A client like this one (the same connections, limits, pacing, key and deadline) that also
   * scrubs `values` (the desired state's secrets) from every error it raises: the service may quote
   * a rejected value in its message (`invalid client_secret ...`). This client is left as it is.
   */
  withSecrets(values: readonly string[]): ApiClient {
    return new ApiClient({ derivedFrom: this.#c, secrets: [...new Set([...this.#secrets, ...values])] });
  }

  /** The redactor for the keys and secrets as they are now. */
  #redactor(): Redactor {
    if (this.#redactVersion !== this.#c.keys.version) {
      this.#redactVersion = this.#c.keys.version;
      this.#redact = createRedactor([...this.#c.keys.values, ...this.#secrets]);
    }
    return this.#redact;
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
      path: wirePath(this.#c.origin, this.#c.pathPrefix, path, options.query),
    };
    // Linking costs an AbortController and listeners: only when there are two signals to link.
    if (options.signal === undefined) return this.#withRetries<T>(identity, options, this.#c.signal);
    const caller = linkSignals([this.#c.signal, options.signal]);
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
    this.#c.closing.abort(new Error('the client was closed'));
    this.#c.deadline.dispose();
    this.#c.attempts.dispose();
    await this.#c.pool.close();
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
          if (response.status !== 429) this.#c.pacer.succeeded();
          if (response.status < 300) return successResponse<T>(identity, response);
          // A rotated key: the old one was revoked before this client read the new one.
          if (response.status === 401 && !renewed && this.#c.headers.renewable) {
            renewed = true;
            if (await this.#c.headers.renew()) continue;
          }
          outcome = statusFailure(identity, response, this.#redactor());
        } catch (err) {
          outcome = transportFailure(err);
        }
        const { failure, failed } = outcome;
        if (failed.kind === 'status' && failed.status === 429 && started.ms !== undefined) {
          const pause =
            failed.retryAfterMs === undefined
              ? undefined
              : Math.min(failed.retryAfterMs, this.#c.retry.maxRetryAfterMs);
          this.#c.pacer.throttled(started.ms, pause);
        }
        const counted = consumesAttempt(failed);
        if (counted) used++;
        lastFailure = causeOf(failure);
        const waitMs = retryDelayMs(this.#c.retry, identity.method, Math.max(used, 1), failed);
        if (waitMs === undefined) throw failure;
        this.#c.onRetry?.({
          ...identity,
          attempt,
          attempts: this.#c.retry.attempts,
          cause: lastFailure,
          counted,
          waitMs,
        });
        await this.#wait(identity, signal, () => this.#c.sleep(waitMs, signal));
      }
    } catch (err) {
      const deadline = this.#c.deadline;
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
    const release = await this.#wait(identity, callerSignal, () => this.#c.limiter.acquire(callerSignal));
    try {
      started.ms = await this.#wait(identity, callerSignal, () => this.#c.pacer.waitTurn(callerSignal));
      const ms = options.timeoutMs ?? this.#c.timeoutMs;
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
    return abortErrorOf(identity, signal, this.#redactor());
  }
}
