import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AbortError,
  ApiClient,
  ApiError,
  isAmbiguousWriteFailure,
  NetworkError,
  TimeoutError,
  type ApiClientOptions,
  type ResponseEvent,
} from '../../src/api/index.js';
import {
  closedPortUrl,
  recordingSleep,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './server.js';

const API_KEY = 'test-key-0123456789';
const servers: TestServer[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function client(baseUrl: string, options: Partial<ApiClientOptions> = {}): ApiClient {
  const created = new ApiClient({ baseUrl, apiKey: API_KEY, ...options });
  clients.push(created);
  return created;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

describe('headers and paths', () => {
  it('sends auth, version, accept and user agent, and Content-Type only with a body', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const api = client(server.url);
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };

    await api.get('/ip_policies');
    await api.post('/ip_policies', { description: 'x' });

    const [get, post] = server.requests;
    expect(get?.headers).toMatchObject({
      authorization: `Bearer ${API_KEY}`,
      'svc-version': '2',
      accept: 'application/json',
      'user-agent': `acctsync/${version}`,
    });
    expect(get?.headers['content-type']).toBeUndefined();
    expect(get?.body).toBe('');
    expect(post?.headers['content-type']).toBe('application/json');
    expect(post?.body).toBe('{"description":"x"}');
  });

  it('keeps the base URL path prefix and appends the query', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const api = client(`${server.url}/api/`);

    await api.get('/ip_policies', { query: { limit: 5, before_id: 'ipp_1', skipped: undefined } });
    await api.get('ip_policies/ipp_2');

    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/ip_policies?limit=5&before_id=ipp_1',
      '/api/ip_policies/ipp_2',
    ]);
  });

  it('resolves a 204 with an undefined body', async () => {
    const server = await serve((_req, res) => res.writeHead(204).end());
    const response = await client(server.url).delete('/ip_policies/ipp_1');
    expect(response).toMatchObject({ status: 204, body: undefined });
  });

  it('refuses an absolute URL on another origin without sending anything', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const err = await rejection(client(server.url).get('http://example.invalid/ip_policies'));
    expect(String(err)).toContain('refusing to send a request to http://example.invalid');
    expect(server.requests).toHaveLength(0);
  });
});

describe('paging', () => {
  const ids = Array.from({ length: 7 }, (_, i) => `ipp_${String(7 - i)}`);

  function pagedHandler(origin: () => string): Handler {
    return (req, res) => {
      const url = new URL(req.url, 'http://x');
      const limit = Number(url.searchParams.get('limit'));
      const beforeId = url.searchParams.get('before_id');
      const start = beforeId === null ? 0 : ids.indexOf(beforeId) + 1;
      const page = ids.slice(start, start + limit).map((id) => ({ id }));
      const last = page.at(-1)?.id;
      const more = start + limit < ids.length && last !== undefined;
      sendJson(res, 200, {
        ip_policies: page,
        uri: `${origin()}/api/ip_policies`,
        next_page_uri: more ? `${origin()}/api/ip_policies?before_id=${last}&limit=${limit}` : null,
      });
    };
  }

  it('follows absolute next_page_uri links over several pages until null', async () => {
    let origin = '';
    const server = await serve(pagedHandler(() => origin));
    origin = server.url;

    const items = await client(`${server.url}/api`).listAll<{ id: string }>('/ip_policies', 'ip_policies', {
      limit: 2,
    });

    expect(items.map((i) => i.id)).toEqual(ids);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/ip_policies?limit=2',
      '/api/ip_policies?before_id=ipp_6&limit=2',
      '/api/ip_policies?before_id=ipp_4&limit=2',
      '/api/ip_policies?before_id=ipp_2&limit=2',
    ]);
  });

  it('asks for the maximum page size by default', async () => {
    let origin = '';
    const server = await serve(pagedHandler(() => origin));
    origin = server.url;
    await client(`${server.url}/api`).listAll('/ip_policies', 'ip_policies');
    expect(server.requests.map((r) => r.url)).toEqual(['/api/ip_policies?limit=100']);
  });

  it('stops on an empty page even when a next link is given', async () => {
    const server = await serve((_req, res, index) =>
      sendJson(res, 200, {
        keys: index < 2 ? [{ id: `ak_${index}` }] : [],
        next_page_uri: `${server.url}/api_keys?before_id=ak_${index}&limit=100`,
      }),
    );
    const items = await client(server.url).listAll('/api_keys', 'keys');
    expect(items).toEqual([{ id: 'ak_0' }, { id: 'ak_1' }]);
    expect(server.requests).toHaveLength(3);
  });

  it('fails when the list member is missing', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { other: [] }));
    const err = await rejection(client(server.url).listAll('/api_keys', 'keys'));
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain("no array member 'keys'");
  });

  it('stops with an error when a server repeats a page cursor instead of paging forever', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 200, {
        keys: [{ id: 'ak_1' }],
        next_page_uri: `${server.url}/api_keys?before_id=ak_1&limit=100`,
      }),
    );
    const err = await rejection(client(server.url).listAll('/api_keys', 'keys'));
    expect(err).toBeInstanceOf(ApiError);
    expect(String(err)).toContain('repeats an earlier page');
    expect(server.requests).toHaveLength(2);
  });
});

describe('retries', () => {
  it('retries a GET after a 503 and succeeds', async () => {
    const server = await serve((_req, res, index) =>
      index === 0
        ? sendJson(res, 503, { error_code: 'ERR_SVC_500', msg: 'busy' })
        : sendJson(res, 200, { id: 'x' }),
    );
    const { sleep, delays } = recordingSleep();
    const response = await client(server.url, { sleep }).get('/ip_policies/x');
    expect(response.body).toEqual({ id: 'x' });
    expect(server.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeLessThanOrEqual(250);
  });

  it('gives up after the configured attempts and throws the last error', async () => {
    const server = await serve((_req, res) => sendJson(res, 500, { error_code: 'ERR_SVC_1', msg: 'boom' }));
    const { sleep } = recordingSleep();
    const err = await rejection(client(server.url, { sleep }).get('/x'));
    expect(err).toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(4);
  });

  it('honours Retry-After on 429, for POST too', async () => {
    const server = await serve((_req, res, index) =>
      index === 0
        ? sendJson(res, 429, { error_code: 'ERR_SVC_226', msg: 'slow down' }, { 'retry-after': '1' })
        : sendJson(res, 201, { id: 'ipp_1' }),
    );
    const { sleep, delays } = recordingSleep();
    const response = await client(server.url, { sleep }).post('/ip_policies', {});
    expect(response.status).toBe(201);
    expect(server.requests).toHaveLength(2);
    // Retry-After; the pacer holds the retry's turn to the same moment (on the real clock, which this
    // sleep does not move, so it shows here as a second wait of what is left of the second).
    expect(delays[0]).toBe(1000);
    expect(delays.slice(1)).toEqual([expect.closeTo(1000, -2)]);
  });

  it('caps Retry-After at maxRetryAfterMs', async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 429, {}, { 'retry-after': '3600' }) : sendJson(res, 200, {}),
    );
    const { sleep, delays } = recordingSleep();
    await client(server.url, { sleep, retry: { maxRetryAfterMs: 5000 } }).get('/x');
    expect(delays[0]).toBe(5000);
    // The pace's hold is capped alike: the retry waits its turn, not an hour.
    expect(Math.max(...delays)).toBeLessThanOrEqual(5000);
  });

  it('does not retry a 400', async () => {
    const server = await serve((_req, res) => sendJson(res, 400, { error_code: 'ERR_SVC_215', msg: 'bad' }));
    const err = await rejection(client(server.url, recordingSleep()).patch('/ip_policies/x', {}));
    expect(err).toMatchObject({ status: 400, errorCode: 'ERR_SVC_215' });
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a POST on 503: the write is ambiguous', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, { error_code: 'ERR_SVC_500', msg: 'busy' }));
    const err = await rejection(client(server.url, recordingSleep()).post('/ip_policies', {}));
    expect(err).toBeInstanceOf(ApiError);
    expect(isAmbiguousWriteFailure(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('does not retry a POST when the connection is reset after sending', async () => {
    const server = await serve((_req, res) => res.socket?.destroy());
    const err = await rejection(client(server.url, recordingSleep()).post('/ip_policies', { a: 1 }));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ method: 'POST', path: '/ip_policies', requestMayHaveBeenProcessed: true });
    expect(isAmbiguousWriteFailure(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a GET when the connection is reset', async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? res.socket?.destroy() : sendJson(res, 200, {}),
    );
    await client(server.url, recordingSleep()).get('/x');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a POST on a refused connection, which nothing received', async () => {
    const url = await closedPortUrl();
    const events: ResponseEvent[] = [];
    const { sleep, delays } = recordingSleep();
    const err = await rejection(
      client(url, { sleep, onResponse: (e) => events.push(e) }).post('/ip_policies', {}),
    );
    expect(err).toBeInstanceOf(NetworkError);
    expect(err).toMatchObject({ code: 'ECONNREFUSED', requestMayHaveBeenProcessed: false });
    expect(isAmbiguousWriteFailure(err)).toBe(false);
    expect(events.map((e) => [e.attempt, e.status])).toEqual([
      [1, 'error'],
      [2, 'error'],
      [3, 'error'],
      [4, 'error'],
    ]);
    expect(delays).toHaveLength(3);
  });
});

describe('timeouts and aborts', () => {
  it('raises TimeoutError when no response arrives in time', async () => {
    const server = await serve(() => undefined);
    const api = client(server.url, { timeoutMs: 50, retry: { attempts: 1 } });
    const err = await rejection(api.get('/slow'));
    expect(err).toBeInstanceOf(TimeoutError);
    expect(err).toMatchObject({ method: 'GET', path: '/slow', timeoutMs: 50 });
  });

  it('times out each attempt on its own, whatever else is in flight', async () => {
    let heldArrived: (res: ServerResponse) => void = () => undefined;
    const held = new Promise<ServerResponse>((resolve) => (heldArrived = resolve));
    const server = await serve((req, res) => {
      if (req.url === '/held') heldArrived(res);
    });
    const api = client(server.url, { retry: { attempts: 1 } });
    const answered = api.get('/held', { timeoutMs: 60_000 });
    const long = rejection(api.get('/long', { timeoutMs: 400 }));
    const short = await rejection(api.get('/short', { timeoutMs: 50 }));
    expect(short).toBeInstanceOf(TimeoutError);
    expect(short).toMatchObject({ path: '/short', timeoutMs: 50 });
    const longErr = await long;
    expect(longErr).toBeInstanceOf(TimeoutError);
    expect(longErr).toMatchObject({ path: '/long', timeoutMs: 400 });
    sendJson(await held, 200, { ok: true });
    expect((await answered).body).toEqual({ ok: true });
  });

  it('does not retry a POST that timed out, and calls it ambiguous', async () => {
    const server = await serve(() => undefined);
    const err = await rejection(
      client(server.url, recordingSleep()).post('/ip_policies', {}, { timeoutMs: 50 }),
    );
    expect(err).toBeInstanceOf(TimeoutError);
    expect(isAmbiguousWriteFailure(err)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects with AbortError when the caller aborts, without retrying', async () => {
    const server = await serve(() => undefined);
    const controller = new AbortController();
    const pending = client(server.url, recordingSleep()).get('/x', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    const err = await rejection(pending);
    expect(err).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('rejects at once when the client signal is already aborted', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const err = await rejection(client(server.url, { signal: AbortSignal.abort() }).get('/x'));
    expect(err).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(0);
  });
});

describe('error responses', () => {
  it('parses the error body into ApiError fields', async () => {
    const server = await serve((_req, res) =>
      sendJson(
        res,
        409,
        {
          error_code: 'ERR_SVC_446',
          status_code: 409,
          msg: 'object still in use',
          details: { operation_id: 'op_body', referenced_by: 'edgtls_1' },
        },
        { 'svc-operation-id': 'op_header' },
      ),
    );
    const err = await rejection(client(server.url).delete('/ip_policies/ipp_1'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 409,
      errorCode: 'ERR_SVC_446',
      msg: 'object still in use',
      operationId: 'op_body',
      method: 'DELETE',
      path: '/ip_policies/ipp_1',
      details: { operation_id: 'op_body', referenced_by: 'edgtls_1' },
      retryAfterSeconds: undefined,
    });
    expect((err as Error).message).toBe(
      'DELETE /ip_policies/ipp_1: 409 ERR_SVC_446: object still in use (operation op_body)',
    );
  });

  it('takes the operation id from the header when the body has none', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 400, { error_code: 'ERR_SVC_215', msg: 'bad value' }, { 'svc-operation-id': 'op_123' }),
    );
    const err = await rejection(client(server.url).post('/ip_policies', { x: 1 }));
    expect(err).toMatchObject({ operationId: 'op_123', details: {} });
    expect((err as Error).message).toBe('POST /ip_policies: 400 ERR_SVC_215: bad value (operation op_123)');
  });

  it('tolerates a garbled error body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway');
    });
    const err = await rejection(client(server.url, { retry: { attempts: 1 } }).get('/x'));
    expect(err).toMatchObject({
      status: 502,
      errorCode: 'ERR_HTTP_502',
      msg: 'Bad Gateway',
      operationId: undefined,
    });
    expect((err as Error).message).toBe('GET /x: 502 ERR_HTTP_502: Bad Gateway');
  });

  it('reports an unreadable success body as an ambiguous write', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id": "ipp_');
    });
    const err = await rejection(client(server.url).post('/ip_policies', {}));
    expect(err).toMatchObject({ status: 201, errorCode: 'ERR_INVALID_RESPONSE_BODY' });
    expect(isAmbiguousWriteFailure(err)).toBe(true);
  });
});
