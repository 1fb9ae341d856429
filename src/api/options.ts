/**
 * What a client is made with: its options and their defaults, the events it reports, where a key
 * that can change comes from, and the headers and version every request carries. It loads
 * nothing of the client (undici, the pool), so that `--help` and the dispatch read a default or
 * the version from here on every start.
 */
import { readFileSync } from 'node:fs';
import { secondsText } from '../duration.js';
import type { Sleep, RetryPolicy } from './pacing.js';
import type { HttpMethod, Query } from './request.js';

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
  return `retrying ${e.method} ${e.path} (${attempt} failed: ${e.cause}); next try in ${secondsText(e.waitMs)}`;
}

/** Options of the `ApiClient`. */
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
   * waits stop there with a `DeadlineError`. None by default (a daemon's client lives long).
   */
  readonly deadlineMs?: number;
  /** Called before each wait for a retry. */
  readonly onRetry?: (event: RetryEvent) => void;
  readonly retry?: Partial<RetryPolicy>;
  /** Most requests in flight at once. Default 8. */
  readonly concurrency?: number;
  /**
   * Spread attempt starts (retries included) so that no more than this many start per rolling
   * minute. With or without it, a 429 lowers the pace and successes raise it again (`pacing.ts`).
   */
  readonly ratePerMinute?: number;
  /** Told this client's pace (requests per minute; Infinity while unpaced) whenever it changes. */
  readonly onPace?: (ratePerMinute: number) => void;
  /** Default `acctsync/<version>`. */
  readonly userAgent?: string;
  /** Aborts every request of this client. */
  readonly signal?: AbortSignal;
  readonly onResponse?: (event: ResponseEvent) => void;
  /** Used for retry backoff and pacing; tests inject one that does not wait. */
  readonly sleep?: Sleep;
  /**
   * Milliseconds that only move forward, which the service's time is carried on between answers
   * (`serviceClock`); `performance.now` unless a test brings its clock.
   */
  readonly monotonic?: () => number;
}

/** Options of one request. */
export interface RequestOptions {
  /** Sent as JSON when not `undefined`. */
  readonly body?: unknown;
  readonly query?: Query;
  readonly signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  readonly timeoutMs?: number;
  /**
   * Runs synchronously right before each attempt is sent (after any wait for a slot, the pacer or
   * a backoff); what it throws ends the request unsent. A lease holder checks its lease here.
   */
  readonly beforeSend?: () => void;
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

/** Options of `ApiClient.list`. */
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

/** Headers of every request: the key, the API version acctsync speaks, and who is asking. */
export function requestHeaders(options: ApiClientOptions): Readonly<Record<string, string>> {
  return {
    authorization: `Bearer ${options.apiKey}`,
    'svc-version': '2',
    accept: 'application/json',
    'user-agent': options.userAgent ?? `acctsync/${packageVersion()}`,
  };
}

/**
 * Where the client's key comes from, when it is not fixed: a key that can change while a client
 * lives, such as the key file of a Kubernetes Secret, which the kubelet replaces when the Secret is
 * rotated (and the old key is revoked). The client asks for the key before each attempt, and once
 * more after a 401 before it gives up.
 */
export interface ApiKeySource {
  /** The key to send now. */
  current(): string;
  /**
   * Reads the key again, after the service refused the current one; resolves true when a different
   * key is now current (the refused request is then sent again with it).
   */
  renew(): Promise<boolean>;
}

let cached: string | undefined;

function readVersion(): string {
  try {
    // Both src/api/options.ts (vitest) and dist/api/options.js (built) sit two levels below the root.
    const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
    const pkg = JSON.parse(text) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    // A missing version must not make the client unusable; it only shows in User-Agent.
    return 'unknown';
  }
}

/** acctsync's version from package.json, read once. */
export function packageVersion(): string {
  cached ??= readVersion();
  return cached;
}
