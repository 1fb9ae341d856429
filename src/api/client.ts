import { setMaxListeners } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { UserError } from '../errors.js';
import { apiErrorFromResponse } from './error-response.js';
import {
  AbortError,
  ApiError,
  DeadlineError,
  formatMs,
  NetworkError,
  TimeoutError,
  type RequestIdentity,
} from './errors.js';
import type { ApiKeySource } from './key-source.js';
import { ConcurrencyLimiter } from './limiter.js';
import type { HttpMethod } from './method.js';
import { Pacer, type Sleep } from './pacer.js';
import { createRedactor, sanitizeError, type Redactor } from './redact.js';
import {
  consumesAttempt,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
  type RetryPolicy,
} from './retry.js';
import { attemptDeadline, linkSignals, type LinkedSignal } from './signals.js';
import { networkErrorFrom } from './transport-error.js';
import { packageVersion } from './version.js';

/** Reported once per attempt, for metrics and request counting. Carries nothing secret. */
export interface ResponseEvent {
  readonly method: HttpMethod;
  /** Path and query as sent on the wire. */
  readonly path: string;
  /** The HTTP status, or `'error'` when no response arrived (network error, timeout, abort). */
  readonly status: number | 'error';
  readonly durationMs: number;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
}

/** Reported before each wait for a retry, so a person (stderr) or a daemon (logs) sees it. */
export interface RetryEvent {
  readonly method: HttpMethod;
  /** Path and query as sent on the wire. */
  readonly path: string;
  /** 1-based number of the attempt that failed. */
  readonly attempt: number;
  /** Attempts a request gets (429s with `Retry-After` do not use them up). */
  readonly attempts: number;
  /** What went wrong, for people: `503 ERR_SVC_...`, `timeout after 10 s`, `network error ECONNRESET`. */
  readonly cause: string;
  /** Whether this failure used up one of the attempts. */
  readonly counted: boolean;
  readonly waitMs: number;
}

/** `retrying GET /ip_policies (attempt 2 of 4 failed: timeout after 10 s); next try in 0.3 s` */
export function describeRetry(e: RetryEvent): string {
  const attempt = e.counted ? `attempt ${e.attempt} of ${e.attempts}` : `attempt ${e.attempt}, not counted`;
  return `retrying ${e.method} ${e.path} (${attempt} failed: ${e.cause}); next try in ${formatMs(e.waitMs)}`;
}

/** Options of {@link ApiClient}. */
export interface ApiClientOptions {
  /** Origin plus an optional path prefix, e.g. `http://127.0.0.1:4010/api`. */
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Asked for the key before each attempt and after a 401, when the key can change (a rotated key file). */
  readonly keySource?: ApiKeySource;
  /** Per attempt, until the whole body is read. Default 6 s. */
  readonly timeoutMs?: number;
  /**
   * Overall budget of every request of this client, from its construction: retries and rate-limit
   * waits stop there with a {@link DeadlineError}. None by default (a daemon's client lives long).
   */
  readonly deadlineMs?: number;
  /** Called before each wait for a retry. */
  readonly onRetry?: (event: RetryEvent) => void;
  readonly retry?: Partial<RetryPolicy>;
  /** Most requests in flight at once. Default 8. */
  readonly concurrency?: number;
  /** Spread attempt starts (retries included) so that no more than this many start per rolling minute. */
  readonly ratePerMinute?: number;
  /** Default `acctsync/<version>`. */
  readonly userAgent?: string;
  /** Aborts every request of this client. */
  readonly signal?: AbortSignal;
  readonly onResponse?: (event: ResponseEvent) => void;
  /** Used for retry backoff and pacing; tests inject one that does not wait. */
  readonly sleep?: Sleep;
}

/** Query parameters; `undefined` values are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

/** Options of one request. */
export interface RequestOptions {
  /** Sent as JSON when not `undefined`. */
  readonly body?: unknown;
  readonly query?: Query;
  readonly signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  readonly timeoutMs?: number;
}

/** Response headers, names in lower case. */
export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** A successful response. */
export interface ApiResponse<T> {
  readonly status: number;
  /** Parsed JSON; `undefined` when the response has no body (204). */
  readonly body: T;
  readonly headers: ResponseHeaders;
}

/** Options of {@link ApiClient.list}. */
export interface ListOptions {
  /** Page size, 1..100. Default 100, the maximum, for the fewest requests. */
  readonly limit?: number;
  readonly signal?: AbortSignal;
}

/**
 * A healthy API answers in well under a second. Against one that never answers, a plan's ~19 list
 * requests share 8 slots, so the first to use up its 4 attempts does so after about 7 timeouts:
 * 6 s each makes the plan fail in well under a minute.
 */
export const defaultTimeoutMs = 6_000;
/** Requests in flight at once when {@link ApiClientOptions.concurrency} is not given. */
export const defaultConcurrency = 8;
const MAX_PAGE_SIZE = 100;

const defaultSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal === undefined ? {} : { signal });
};

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

function firstHeader(headers: ResponseHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A relative path the URL parser leaves as it is: unreserved characters and sub-delimiters only (no
 * `%`, `?`, `#`, `\\`, spaces or non-ASCII, which it would encode or interpret), and no scheme.
 */
const plainPath = /^\/?(?![a-z][a-z0-9+.-]*:)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/i;
/** A `.` or `..` segment, which the URL parser resolves. */
const dotSegment = /(?:^|\/)\.\.?(?:\/|$)/;

function hasQueryValue(query: Query | undefined): boolean {
  if (query === undefined) return false;
  for (const name in query) if (query[name] !== undefined) return true;
  return false;
}

/** A failure in a few words, for retry reports and the deadline's message. */
function causeOf(failure: ApiError | NetworkError | TimeoutError): string {
  if (failure instanceof ApiError) return `${failure.status} ${failure.errorCode}`;
  if (failure instanceof TimeoutError) return `no answer within ${formatMs(failure.timeoutMs)}`;
  return `network error ${failure.code}`;
}

/** A raw response, before it is judged a success or an error. */
interface RawResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  readonly bodyText: string;
}

/**
 * Client of the account API: auth and version headers, JSON bodies, typed errors, retries that never
 * repeat a write the server may have committed, a cap on requests in flight, optional pacing, and
 * paging. One keep-alive connection pool for the API's origin.
 */
export class ApiClient {
  readonly #origin: string;
  readonly #pathPrefix: string;
  readonly #pool: Pool;
  #headers: Readonly<Record<string, string>>;
  /** {@link #headers} plus the JSON content type, for requests with a body. */
  #jsonHeaders: Readonly<Record<string, string>>;
  readonly #keySource: ApiKeySource | undefined;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #limiter: ConcurrencyLimiter;
  readonly #pacer: Pacer | undefined;
  readonly #signal: AbortSignal;
  readonly #closing: AbortController;
  /** The client's signal: the caller's, closing, and the deadline when there is one. */
  readonly #deadline: LinkedSignal & { readonly ms: number };
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #onResponse: ((event: ResponseEvent) => void) | undefined;
  readonly #sleep: Sleep;
  #redact: Redactor;
  #secrets: readonly string[];

  constructor(options: ApiClientOptions) {
    const base = new URL(options.baseUrl);
    this.#origin = base.origin;
    this.#pathPrefix = base.pathname.replace(/\/+$/, '');
    const concurrency = options.concurrency ?? defaultConcurrency;
    this.#limiter = new ConcurrencyLimiter(concurrency);
    this.#pool = new Pool(this.#origin, { connections: concurrency });
    this.#headers = {
      authorization: `Bearer ${options.apiKey}`,
      'svc-version': '2',
      accept: 'application/json',
      'user-agent': options.userAgent ?? `acctsync/${packageVersion()}`,
    };
    this.#jsonHeaders = { ...this.#headers, 'content-type': 'application/json' };
    this.#timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
    this.#retry = { ...defaultRetryPolicy, ...options.retry };
    this.#sleep = options.sleep ?? defaultSleep;
    this.#pacer =
      options.ratePerMinute === undefined ? undefined : new Pacer(options.ratePerMinute, this.#sleep);
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
    this.#onRetry = options.onRetry;
    this.#onResponse = options.onResponse;
    this.#secrets = [options.apiKey];
    this.#redact = createRedactor(this.#secrets);
    this.#keySource = options.keySource;
  }

  /** The headers with the key source's current key (the key scrubbed from errors like the first). */
  #headersFor(body: string | undefined): Readonly<Record<string, string>> {
    const key = this.#keySource?.current();
    if (key !== undefined && this.#headers.authorization !== `Bearer ${key}`) {
      this.protectSecrets([key]);
      this.#headers = { ...this.#headers, authorization: `Bearer ${key}` };
      this.#jsonHeaders = { ...this.#jsonHeaders, authorization: `Bearer ${key}` };
    }
    return body === undefined ? this.#headers : this.#jsonHeaders;
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
   * @throws {ApiError} on an error status; {@link NetworkError}, {@link TimeoutError}, {@link AbortError}
   */
  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const identity: RequestIdentity = { method, path: this.#wirePath(path, options.query) };
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
  async *list<T>(
    path: string,
    member: string,
    options: ListOptions = {},
  ): AsyncGenerator<T, void, undefined> {
    const signalOption = options.signal === undefined ? {} : { signal: options.signal };
    let page = await this.get<Record<string, unknown> | undefined>(path, {
      ...signalOption,
      query: { limit: options.limit ?? MAX_PAGE_SIZE },
    });
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
      page = await this.get<Record<string, unknown> | undefined>(next, signalOption);
    }
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
    await this.#pool.close();
  }

  /** Path and query to send; refuses URLs on another origin so the key is never sent elsewhere. */
  #wirePath(path: string, query: Query | undefined): string {
    // The common case, a plain relative path without query: what the URL parser would give, without it.
    if (plainPath.test(path) && !dotSegment.test(path) && !hasQueryValue(query)) {
      return `${this.#pathPrefix}/${path.replace(/^\/+/, '')}`;
    }
    const url = /^[a-z][a-z0-9+.-]*:/i.test(path)
      ? new URL(path)
      : new URL(`${this.#pathPrefix}/${path.replace(/^\/+/, '')}`, this.#origin);
    if (url.origin !== this.#origin) {
      throw new UserError(
        `refusing to send a request to ${url.origin}: the API is at ${this.#origin} (it sent a link to another origin)`,
      );
    }
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url.pathname + url.search;
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
        let failure: ApiError | NetworkError | TimeoutError;
        let failed: FailedAttempt;
        try {
          const response = await this.#attempt(identity, body, options.timeoutMs, signal, attempt);
          if (response.status < 300) return this.#success<T>(identity, response);
          // A rotated key: the old one was revoked before this client read the new one.
          if (response.status === 401 && !renewed && this.#keySource !== undefined) {
            renewed = true;
            if (await this.#keySource.renew()) continue;
          }
          const retryAfterMs = parseRetryAfterMs(firstHeader(response.headers, 'retry-after'), Date.now());
          failure = apiErrorFromResponse(
            identity,
            {
              status: response.status,
              bodyText: response.bodyText,
              operationIdHeader: firstHeader(response.headers, 'svc-operation-id'),
              retryAfterMs,
            },
            this.#redact,
          );
          failed = { kind: 'status', status: response.status, retryAfterMs };
        } catch (err) {
          if (err instanceof TimeoutError) failed = { kind: 'timeout' };
          else if (err instanceof NetworkError) {
            failed = { kind: 'network', requestMayHaveBeenProcessed: err.requestMayHaveBeenProcessed };
          } else throw err;
          failure = err;
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

  /** One try: take a slot, wait for the pacer, send, read the whole body. */
  async #attempt(
    identity: RequestIdentity,
    body: string | undefined,
    timeoutMs: number | undefined,
    callerSignal: AbortSignal | undefined,
    attempt: number,
  ): Promise<RawResponse> {
    const release = await this.#wait(identity, callerSignal, () => this.#limiter.acquire(callerSignal));
    try {
      if (this.#pacer !== undefined) {
        const pacer = this.#pacer;
        await this.#wait(identity, callerSignal, () => pacer.waitTurn(callerSignal));
      }
      return await this.#send(identity, body, timeoutMs ?? this.#timeoutMs, callerSignal, attempt);
    } finally {
      release();
    }
  }

  async #send(
    identity: RequestIdentity,
    body: string | undefined,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
    attempt: number,
  ): Promise<RawResponse> {
    const deadline = attemptDeadline(callerSignal, timeoutMs);
    const onResponse = this.#onResponse;
    const startedAt = onResponse === undefined ? 0 : performance.now();
    const report = (status: number | 'error'): void =>
      onResponse?.({ ...identity, status, durationMs: performance.now() - startedAt, attempt });
    try {
      const response = await this.#pool.request({
        method: identity.method,
        path: identity.path,
        headers: this.#headersFor(body),
        body: body ?? null,
        signal: deadline.signal,
      });
      const bodyText = await response.body.text();
      report(response.statusCode);
      return { status: response.statusCode, headers: response.headers, bodyText };
    } catch (err) {
      report('error');
      if (callerSignal?.aborted === true) throw this.#abortError(identity, callerSignal);
      if (deadline.timedOut()) {
        throw new TimeoutError({ ...identity, timeoutMs }, { cause: sanitizeError(err, this.#redact) });
      }
      throw networkErrorFrom(err, identity, this.#redact);
    } finally {
      deadline.dispose();
    }
  }

  #success<T>(identity: RequestIdentity, response: RawResponse): ApiResponse<T> {
    if (response.bodyText.length === 0) {
      return { status: response.status, headers: response.headers, body: undefined as T };
    }
    try {
      return { status: response.status, headers: response.headers, body: JSON.parse(response.bodyText) as T };
    } catch {
      // Committed on the server, unreadable here: an ApiError so that writes count as ambiguous.
      throw new ApiError({
        ...identity,
        status: response.status,
        errorCode: 'ERR_INVALID_RESPONSE_BODY',
        msg: 'response body is not valid JSON',
        operationId: firstHeader(response.headers, 'svc-operation-id'),
        details: {},
        retryAfterSeconds: undefined,
      });
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
    return new AbortError(identity, { cause: sanitizeError(signal.reason, this.#redact) });
  }
}
