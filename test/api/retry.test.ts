import { describe, expect, it } from 'vitest';
import {
  backoffDelayMs,
  defaultRetryPolicy,
  parseRetryAfterMs,
  retryDelayMs,
  type FailedAttempt,
  type HttpMethod,
} from '../../src/api/index.js';

const always = (): number => 1;
const status = (code: number, retryAfterMs?: number): FailedAttempt => ({
  kind: 'status',
  status: code,
  retryAfterMs,
});
const reset: FailedAttempt = { kind: 'network', requestMayHaveBeenProcessed: true };
const refused: FailedAttempt = { kind: 'network', requestMayHaveBeenProcessed: false };
const timeout: FailedAttempt = { kind: 'timeout' };

function retries(method: HttpMethod, failure: FailedAttempt): boolean {
  return retryDelayMs(defaultRetryPolicy, method, 1, failure, always) !== undefined;
}

describe('backoffDelayMs', () => {
  it('doubles from the base up to the cap, scaled by the jitter', () => {
    const policy = { ...defaultRetryPolicy, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((n) => backoffDelayMs(policy, n, always))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelayMs(policy, 2, () => 0.5)).toBe(200);
    expect(backoffDelayMs(policy, 2, () => 0)).toBe(0);
  });
});

describe('parseRetryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfterMs('1', now)).toBe(1000);
    expect(parseRetryAfterMs(' 2.5 ', now)).toBe(2500);
    expect(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterMs('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable value', () => {
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-1', now)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('retries idempotent methods on 5xx, 429, network errors and timeouts', () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const failure of [
        status(500),
        status(502),
        status(503),
        status(504),
        status(429),
        reset,
        refused,
        timeout,
      ]) {
        expect(retries(method, failure), `${method} ${JSON.stringify(failure)}`).toBe(true);
      }
    }
  });

  it('never retries other 4xx', () => {
    for (const code of [400, 401, 403, 404, 405, 409]) expect(retries('GET', status(code))).toBe(false);
  });

  it('retries POST only when the server certainly did not process it', () => {
    expect(retries('POST', status(429))).toBe(true);
    expect(retries('POST', refused)).toBe(true);
    expect(retries('POST', status(500))).toBe(false);
    expect(retries('POST', status(503))).toBe(false);
    expect(retries('POST', reset)).toBe(false);
    expect(retries('POST', timeout)).toBe(false);
  });

  it('stops after the last attempt', () => {
    expect(retryDelayMs(defaultRetryPolicy, 'GET', 3, status(503), always)).toBe(1000);
    expect(retryDelayMs(defaultRetryPolicy, 'GET', 4, status(503), always)).toBeUndefined();
  });

  it('honours Retry-After in full up to maxRetryAfterMs, beyond maxDelayMs', () => {
    expect(retryDelayMs(defaultRetryPolicy, 'GET', 1, status(429, 45_000), always)).toBe(45_000);
    expect(retryDelayMs(defaultRetryPolicy, 'GET', 1, status(429, 600_000), always)).toBe(120_000);
  });
});
