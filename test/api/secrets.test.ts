import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ApiClientOptions, type ResponseEvent } from '../../src/api/index.js';
import {
  closedPortUrl,
  recordingSleep,
  sendJson,
  startServer,
  type Handler,
  type TestServer,
} from './server.js';

const API_KEY = 'sk_live_7f3a9c1e5b2d4f6a8c0e';
const BODY_MARKER = 'private-body-content-41f7';
const servers: TestServer[] = [];
const clients: ApiClient[] = [];
const events: ResponseEvent[] = [];

afterEach(async () => {
  events.length = 0;
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function client(baseUrl: string, options: Partial<ApiClientOptions> = {}): ApiClient {
  const created = new ApiClient({
    baseUrl,
    apiKey: API_KEY,
    onResponse: (e) => events.push(e),
    ...recordingSleep(),
    ...options,
  });
  clients.push(created);
  return created;
}

async function serve(handler: Handler): Promise<string> {
  const server = await startServer(handler);
  servers.push(server);
  return server.url;
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected the promise to reject');
}

/** Every way an error is likely to end up in a log, causes included. */
function renderings(err: unknown): string[] {
  return [
    (err as Error).message,
    String(err),
    JSON.stringify(err),
    inspect(err, { depth: 10 }),
    inspect(err, { depth: 10, showHidden: true }),
    JSON.stringify(events),
  ];
}

function expectNoSecrets(err: unknown): void {
  expect(err).toBeInstanceOf(Error);
  for (const text of renderings(err)) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain('Bearer');
    expect(text).not.toContain(BODY_MARKER);
  }
}

const body = { description: BODY_MARKER };

describe('no secrets in errors or events', () => {
  it('ApiError, even when the server quotes the key back', async () => {
    const url = await serve((_req, res) =>
      sendJson(
        res,
        401,
        { error_code: 'ERR_SVC_401', msg: `invalid token ${API_KEY}`, details: { token: API_KEY } },
        { 'svc-operation-id': `op_${API_KEY}` },
      ),
    );
    const err = await failureOf(client(url).post('/api_keys', body));
    expect(err).toMatchObject({ status: 401, msg: 'invalid token [REDACTED]' });
    expectNoSecrets(err);
  });

  it('ApiError quoting a config secret: scrubbed by the client made withSecrets, the given one left as it is', async () => {
    const secret = 'oidc-client-secret-93b1';
    const url = await serve((_req, res) =>
      sendJson(res, 400, { error_code: 'ERR_SVC_400', msg: `invalid client_secret ${secret}` }),
    );
    const given = client(url);
    const derived = given.withSecrets([secret]);
    const scrubbed = await failureOf(derived.post('/edges/https', body));
    expect(scrubbed).toMatchObject({ status: 400, msg: 'invalid client_secret [REDACTED]' });
    expectNoSecrets(scrubbed);
    // The caller's client is not changed by the one derived from it (a run protects its own).
    const plain = await failureOf(given.post('/edges/https', body));
    expect(plain).toMatchObject({ status: 400, msg: `invalid client_secret ${secret}` });
  });

  it('NetworkError after a reset', async () => {
    const url = await serve((_req, res) => res.socket?.destroy());
    const err = await failureOf(client(url).post('/api_keys', body));
    expect((err as Error).cause).toBeInstanceOf(Error);
    expectNoSecrets(err);
  });

  it('NetworkError on a refused connection', async () => {
    const err = await failureOf(client(await closedPortUrl()).put('/edges/tls/x/policy', body));
    expect((err as Error).cause).toBeInstanceOf(Error);
    expectNoSecrets(err);
  });

  it('TimeoutError', async () => {
    const url = await serve(() => undefined);
    const err = await failureOf(client(url, { timeoutMs: 30 }).patch('/api_keys/ak_1', body));
    expectNoSecrets(err);
  });

  it('AbortError, even when the abort reason names the key', async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const pending = client(url).post('/api_keys', body, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error(`shutting down client for ${API_KEY}`)), 20);
    const err = await failureOf(pending);
    expect((err as Error).cause).toBeInstanceOf(Error);
    expectNoSecrets(err);
  });
});
