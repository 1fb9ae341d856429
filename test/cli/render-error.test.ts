/** The CLI edge renders acctsync's errors by their class, each with its exit code; anything else is a bug. */
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiError,
  DeadlineError,
  NetworkError,
  type RequestError,
  TimeoutError,
} from '../../src/api/index.js';
import { renderError } from '../../src/cli/render-error.js';
import { AcctsyncError, UsageError, UserError } from '../../src/errors.js';

const request = { method: 'POST', path: '/ip_policies' } as const;

describe('renderError', () => {
  it('prints every failed request as its one safe line, exit 1', () => {
    const errors: RequestError[] = [
      new ApiError({
        ...request,
        status: 409,
        errorCode: 'ERR_SVC_446',
        msg: 'taken',
        operationId: 'op_1',
        details: {},
        retryAfterSeconds: undefined,
      }),
      new NetworkError({ ...request, code: 'ECONNRESET', requestMayHaveBeenProcessed: true }),
      new TimeoutError({ ...request, timeoutMs: 30_000 }),
      new AbortError(request),
      new DeadlineError({ ...request, deadlineMs: 90_000 }),
    ];
    expect(errors.map((err) => renderError(err))).toEqual([
      {
        text: 'error: POST /ip_policies: 409 ERR_SVC_446: taken (operation op_1)',
        annotations: [],
        exitCode: 1,
      },
      {
        text: 'error: POST /ip_policies: network error ECONNRESET (the server may have processed the request); the connection was cut: check the network and any proxy, then run again',
        annotations: [],
        exitCode: 1,
      },
      {
        text: 'error: POST /ip_policies: no complete response within 30000 ms',
        annotations: [],
        exitCode: 1,
      },
      { text: 'error: POST /ip_policies: aborted', annotations: [], exitCode: 1 },
      {
        text: 'error: POST /ip_policies: the deadline of 90 s for this command passed',
        annotations: [],
        exitCode: 1,
      },
    ]);
    for (const err of errors) {
      expect(err).toBeInstanceOf(AcctsyncError);
      expect(err.name).toBe(err.constructor.name);
    }
  });

  it("prints a user error's message and details, exit 1", () => {
    const err = new UsageError('plan: unknown flag --nope', { details: ['see acctsync plan --help'] });
    expect(err).toBeInstanceOf(UserError);
    expect(renderError(err)).toEqual({
      text: 'error: plan: unknown flag --nope\nsee acctsync plan --help',
      annotations: [],
      exitCode: 1,
    });
  });

  it('calls an error it does not know a bug, whatever its name says (exit 70)', () => {
    const impostor = Object.assign(new Error('GET /x: 500'), { name: 'ApiError' });
    const rendered = renderError(impostor);
    expect(rendered.exitCode).toBe(70);
    expect(rendered.text).toMatch(/^internal error: this is a bug in acctsync/);
  });
});
