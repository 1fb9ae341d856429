/**
 * One attempt of a request: sent through the client's pool, its whole answer read, cut short by
 * its timeout or a signal, and the error it ends with when no answer comes (a timeout, an abort,
 * a network error that says whether the request may have reached the server). Retries, pacing and
 * judging the answer are the client's.
 */
import type { Dispatcher } from 'undici';
import { sanitizeError, type AuthHeaders, type Redactor } from './credentials.js';
import { AbortError, NetworkError, TimeoutError } from './errors.js';
import type { ResponseEvent, ResponseHeaders } from './options.js';
import type { RequestIdentity } from './request.js';
import type { RawResponse } from './response.js';
import type { ServiceClock } from './service-clock.js';

/** An AbortSignal linked to others and optionally to a deadline; dispose() detaches everything. */
export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** True when the deadline, not a linked signal, fired. */
  timedOut(): boolean;
  dispose(): void;
}

/**
 * Links signals by hand rather than with `AbortSignal.any`, so that per-attempt listeners on a
 * long-lived client signal are removed as soon as the attempt ends.
 */
export function linkSignals(signals: readonly (AbortSignal | undefined)[], timeoutMs?: number): LinkedSignal {
  const controller = new AbortController();
  const linked = signals.filter((s): s is AbortSignal => s !== undefined);
  let deadlinePassed = false;
  const onAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  for (const signal of linked) {
    if (signal.aborted) controller.abort(signal.reason);
    else signal.addEventListener('abort', onAbort, { once: true });
  }
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          deadlinePassed = true;
          controller.abort(new Error(`deadline of ${timeoutMs} ms passed`));
        }, timeoutMs);
  // A deadline never keeps the process alive by itself.
  timer?.unref();
  return {
    signal: controller.signal,
    timedOut: () => deadlinePassed,
    dispose: () => {
      clearTimeout(timer);
      for (const signal of linked) signal.removeEventListener('abort', onAbort);
    },
  };
}

/** Anything an attempt can be ended with. */
interface Abortable {
  abort(reason: Error): void;
}

/** An attempt in flight, from {@link AttemptWatch.start} to {@link AttemptWatch.end}. */
interface WatchedAttempt {
  readonly target: Abortable;
  readonly timeoutMs: number;
  readonly deadline: number;
  /** True once the deadline, not a signal, ended the attempt. */
  timedOut: boolean;
  /** Set when the attempt listens on a signal other than the client's. */
  readonly signal: AbortSignal | undefined;
  readonly onAbort: (() => void) | undefined;
}

/**
 * The client's attempts in flight, each with its own deadline and the signal that may cut it. One
 * timer serves them all, armed for the earliest deadline, and one listener on the client's signal:
 * an attempt costs a set entry, not a timer and a listener of its own (with one request in flight
 * at a time, Node would otherwise create and tear down its timer list for every request).
 */
export class AttemptWatch {
  readonly #clientSignal: AbortSignal;
  readonly #inFlight = new Set<WatchedAttempt>();
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires (`performance.now()` time), Infinity when it is not armed. */
  #timerAt = Infinity;

  /** Attempts whose caller signal is `clientSignal` are aborted through one listener on it. */
  constructor(clientSignal: AbortSignal) {
    this.#clientSignal = clientSignal;
    clientSignal.addEventListener('abort', () => {
      for (const attempt of this.#inFlight) {
        if (attempt.signal === undefined) attempt.target.abort(clientSignal.reason as Error);
      }
    });
  }

  /** Watches `target` until {@link end}: aborted by `callerSignal`, or when `timeoutMs` passes. */
  start(target: Abortable, timeoutMs: number, callerSignal: AbortSignal | undefined): WatchedAttempt {
    const own = callerSignal !== undefined && callerSignal !== this.#clientSignal;
    const signal = own ? callerSignal : undefined;
    const onAbort = own ? () => target.abort(callerSignal.reason as Error) : undefined;
    const attempt: WatchedAttempt = {
      target,
      timeoutMs,
      deadline: performance.now() + timeoutMs,
      timedOut: false,
      signal,
      onAbort,
    };
    this.#inFlight.add(attempt);
    if (callerSignal?.aborted === true) target.abort(callerSignal.reason as Error);
    else if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true });
    if (attempt.deadline < this.#timerAt) this.#arm(attempt.deadline);
    return attempt;
  }

  /** Stops watching `attempt` (it settled). The timer stays armed: the next attempt likely reuses it. */
  end(attempt: WatchedAttempt): void {
    this.#inFlight.delete(attempt);
    if (attempt.onAbort !== undefined) attempt.signal?.removeEventListener('abort', attempt.onAbort);
  }

  /** Clears the timer; attempts still in flight are left to the client's signal. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#sweep(), Math.max(0, at - performance.now()));
    // Never keeps the process alive by itself: an attempt in flight holds its socket open.
    this.#timer.unref();
  }

  /** Ends every attempt past its deadline and arms the timer for the next deadline, if any. */
  #sweep(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const attempt of this.#inFlight) {
      if (attempt.timedOut) continue;
      if (attempt.deadline <= now) {
        attempt.timedOut = true;
        attempt.target.abort(new Error(`deadline of ${attempt.timeoutMs} ms passed`));
      } else if (attempt.deadline < next) next = attempt.deadline;
    }
    if (next < Infinity) this.#arm(next);
  }
}

/**
 * One request and its whole response, as undici's dispatch handler: status, headers and the body
 * as text, settled once the last byte is read. It does what `request()` and `body.text()` do for a
 * client that always reads the whole body (no response stream per attempt), and takes an abort
 * from the attempt's timeout or signal instead of listening on a signal of its own.
 */
class Exchange implements Dispatcher.DispatchHandler {
  /** Settles with the response once its body is read, or with the error that ended the attempt. */
  readonly response: Promise<RawResponse>;
  #resolve!: (response: RawResponse) => void;
  #reject!: (err: Error) => void;
  #controller: Dispatcher.DispatchController | undefined;
  /** An abort that came before undici started the request: applied as soon as it does. */
  #abortReason: Error | undefined;
  #status = 0;
  #headers: ResponseHeaders = {};
  #chunks: Buffer[] = [];
  #length = 0;
  #settled = false;

  constructor() {
    this.response = new Promise<RawResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** Ends the attempt with `reason` (undici rejects it with that error); harmless once settled. */
  abort(reason: Error): void {
    if (this.#settled) return;
    if (this.#controller === undefined) this.#abortReason ??= reason;
    else this.#controller.abort(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#abortReason !== undefined) controller.abort(this.#abortReason);
    else this.#controller = controller;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: ResponseHeaders,
  ): void {
    // An informational (1xx) response precedes the real one.
    if (statusCode < 200) return;
    this.#status = statusCode;
    this.#headers = headers;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  onResponseEnd(): void {
    this.#settled = true;
    this.#resolve({ status: this.#status, headers: this.#headers, bodyText: this.#text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, err: Error): void {
    this.#settled = true;
    this.#reject(err);
  }

  /** The body decoded as UTF-8 without a leading byte order mark, as `body.text()` gives it. */
  #text(): string {
    const chunks = this.#chunks;
    if (this.#length === 0) return '';
    const buffer = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#length);
    const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    return buffer.toString('utf8', bom ? 3 : 0);
  }
}

/**
 * Codes raised while connecting, before any byte of the request is written. Everything else (resets,
 * "other side closed", parser errors) may come after the server read the request.
 */
const BEFORE_SEND_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const SYSTEM_CODE = /^E[A-Z]+$/;
const MAX_DEPTH = 5;

function codesInCauseChain(err: unknown): string[] {
  const codes: string[] = [];
  let current = err;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = current.cause;
  }
  return codes;
}

/**
 * Wraps a connection-level failure from undici or node:net. The most telling code wins: a system
 * code (`ECONNRESET`) found anywhere in the cause chain beats undici's generic `UND_ERR_SOCKET`.
 */
function networkErrorFrom(err: unknown, request: RequestIdentity, redact: Redactor): NetworkError {
  const codes = codesInCauseChain(err);
  const code = codes.find((c) => SYSTEM_CODE.test(c)) ?? codes[0] ?? 'UNKNOWN';
  return new NetworkError(
    { ...request, code, requestMayHaveBeenProcessed: !BEFORE_SEND_CODES.has(code) },
    { cause: sanitizeError(err, redact) },
  );
}

/** What a client sends its attempts with; made once per client. */
export interface AttemptTransport {
  readonly pool: Dispatcher;
  readonly headers: AuthHeaders;
  readonly attempts: AttemptWatch;
  readonly onResponse: ((event: ResponseEvent) => void) | undefined;
  /** Told each answer's `Date`. */
  readonly clock: ServiceClock;
  /** The client's redactor as it is now: it grows as secrets are added. */
  redactor(): Redactor;
}

/** The error of a request its caller's signal cut. */
export function abortErrorOf(identity: RequestIdentity, signal: AbortSignal, redact: Redactor): AbortError {
  return new AbortError(identity, { cause: sanitizeError(signal.reason, redact) });
}

/**
 * Sends one attempt and reads its whole response, within `timeoutMs`.
 * @throws `AbortError` when `callerSignal` cut it, `TimeoutError`, or `NetworkError`
 */
export async function sendAttempt(
  transport: AttemptTransport,
  identity: RequestIdentity,
  body: string | undefined,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  attempt: number,
): Promise<RawResponse> {
  const exchange = new Exchange();
  const watched = transport.attempts.start(exchange, timeoutMs, callerSignal);
  const onResponse = transport.onResponse;
  const startedAt = performance.now();
  const sentAt = transport.clock.monotonic();
  const report = (status: number | 'error'): void =>
    onResponse?.({ ...identity, status, durationMs: performance.now() - startedAt, attempt });
  try {
    const headers = transport.headers.for(body);
    transport.pool.dispatch(
      { method: identity.method, path: identity.path, headers, body: body ?? null },
      exchange,
    );
    const response = await exchange.response;
    transport.clock.observe(response.headers, sentAt, transport.clock.monotonic());
    report(response.status);
    return response;
  } catch (err) {
    report('error');
    const redact = transport.redactor();
    if (callerSignal?.aborted === true) throw abortErrorOf(identity, callerSignal, redact);
    if (watched.timedOut) {
      throw new TimeoutError({ ...identity, timeoutMs }, { cause: sanitizeError(err, redact) });
    }
    throw networkErrorFrom(err, identity, redact);
  } finally {
    transport.attempts.end(watched);
  }
}
