/**
 * The HTTP edge: auth, version header, routing, rate limit, faults, body limits and parsing, and
 * the gaps.md error body with `Svc-Operation-Id` on every failure.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { ErrorCode, errorCodeString } from '../resources/index.js';
import type { Account } from './account.js';
import type { Principal } from './model.js';
import type { Reply } from './call.js';
import { ApiFailure, badRequest } from './failure.js';
import { injectedStatus, type FaultOptions } from './faults.js';
import type { RateLimiter } from './rate-limit.js';
import { drainUnreadBody, readBody } from './request-body.js';
import { originOfRequest, servingAt } from './request-origin.js';
import { withoutPathEcho } from './path-echo.js';
import type { Router } from './router.js';
import type { RequestStats } from './stats.js';

interface ServerParts {
  readonly account: Account;
  readonly router: Router;
  readonly stats: RequestStats;
  readonly faults: () => FaultOptions;
  readonly rateLimiter: RateLimiter | undefined;
  readonly random: () => number;
  /** Build addresses from `X-Forwarded-Proto`/`-Host`: the proxy in front is the user's own. */
  readonly trustProxy: boolean;
}

const withBody = new Set(['POST', 'PATCH', 'PUT']);
const noBody = Buffer.alloc(0);

function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The request's caller, from its API key; 401 otherwise. */
function authenticate(account: Account, req: IncomingMessage): Principal {
  const token = bearerToken(req.headers.authorization);
  const key = token === undefined ? undefined : account.apiKeyOfToken(token);
  if (key === undefined) {
    throw new ApiFailure(
      401,
      ErrorCode.unauthorized,
      token === undefined
        ? 'missing credentials: send Authorization: Bearer <API key>'
        : 'the API key is not valid',
    );
  }
  const owner = String(key.values.owner_id);
  // An owner that no longer exists keeps its keys usable, without admin rights.
  return account.principals.get(owner) ?? { id: owner, kind: 'user', admin: false };
}

function parseBody(req: IncomingMessage, raw: Buffer): unknown {
  if (raw.length === 0) return {};
  const contentType = req.headers['content-type'];
  if (contentType === undefined) {
    throw badRequest(ErrorCode.missingContentType, 'a body needs Content-Type: application/json');
  }
  if (!/^application\/json\s*(;|$)/i.test(contentType)) {
    throw badRequest(
      ErrorCode.wrongContentType,
      `Content-Type ${contentType} is not supported: send application/json`,
    );
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw badRequest(ErrorCode.bodyUnparseable, `the body is not valid JSON: ${(err as Error).message}`);
  }
}

function checkQuery(query: URLSearchParams, allowed: readonly string[]): void {
  for (const name of query.keys()) {
    if (!allowed.includes(name)) {
      throw badRequest(ErrorCode.unknownQueryParameter, `unknown query parameter ${name}`, {
        parameter: name,
      });
    }
  }
}

/** Writes the answer; headers as a flat list of names and values, which Node sends as they are. */
function send(
  res: ServerResponse,
  operationId: string,
  reply: Reply,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  const headers: string[] = ['Svc-Operation-Id', operationId];
  if (extraHeaders !== undefined)
    for (const [name, value] of Object.entries(extraHeaders)) headers.push(name, value);
  if (reply.json === undefined && reply.body === undefined) {
    res.writeHead(reply.status, headers).end();
    return;
  }
  const text = reply.json ?? JSON.stringify(reply.body);
  const length = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
  headers.push('Content-Type', 'application/json', 'Content-Length', String(length));
  res.writeHead(reply.status, headers).end(text);
}

function sendFailure(res: ServerResponse, operationId: string, failure: ApiFailure): void {
  send(
    res,
    operationId,
    {
      status: failure.status,
      body: {
        error_code: errorCodeString(failure.code),
        status_code: failure.status,
        msg: failure.message,
        details: { ...failure.details, operation_id: operationId },
      },
    },
    failure.headers,
  );
}

function injected(status: 500 | 503 | 429): ApiFailure {
  if (status === 500) return new ApiFailure(500, ErrorCode.internal, 'internal error (injected fault)');
  if (status === 503) {
    return new ApiFailure(
      503,
      ErrorCode.internal,
      'service unavailable (injected fault)',
      {},
      { 'Retry-After': '1' },
    );
  }
  return new ApiFailure(
    429,
    ErrorCode.rateLimited,
    'rate limited (injected fault)',
    {},
    { 'Retry-After': '1' },
  );
}

/** The request listener of the emulator. */
export function requestListener(parts: ServerParts): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(parts, req, res);
  };
}

async function handle(parts: ServerParts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { account, router, stats } = parts;
  const method = req.method ?? 'GET';
  const operationId = account.ids.next('op_');
  let pattern = '(unmatched)';
  try {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const principal = authenticate(account, req);
    const version = req.headers['svc-version'];
    if (version !== undefined && version !== '2') {
      throw badRequest(ErrorCode.invalidVersion, `Svc-Version ${String(version)} is not supported: send 2`);
    }
    const match = router.match(method, path);
    if (match.kind === 'not-found') throw new ApiFailure(404, ErrorCode.notFound, 'Resource not found');
    if (match.kind === 'method-not-allowed') {
      throw new ApiFailure(
        405,
        ErrorCode.methodNotAllowed,
        `${method} is not allowed here`,
        {},
        {
          Allow: match.allowed.join(', '),
        },
      );
    }
    const { route, params } = match;
    pattern = route.pattern;
    // The control surface changes faults and creates admins: a test's other keys must not reach it.
    if (!route.api && !principal.admin) {
      throw new ApiFailure(403, ErrorCode.forbidden, 'the emulator control surface needs an admin key');
    }
    const faults = route.api ? parts.faults() : {};
    if (route.api) {
      const admitted = parts.rateLimiter?.admit(Date.now());
      if (admitted?.ok === false) {
        throw new ApiFailure(
          429,
          ErrorCode.rateLimited,
          'rate limit exceeded',
          {},
          {
            'Retry-After': String(admitted.retryAfterSeconds),
          },
        );
      }
      if ((faults.latencyMs ?? 0) > 0) await delay(faults.latencyMs);
      const status = injectedStatus(faults, parts.random);
      if (status !== undefined) throw injected(status);
    }
    checkQuery(query, route.query ?? []);
    // Awaited only when there is something to wait for: a read needs no turn of the event loop.
    const raw = withBody.has(method) ? await readBody(req) : noBody;
    const body = withoutPathEcho(parseBody(req, raw), params);
    const origin = originOfRequest(req, account.listenOrigin, parts.trustProxy);
    const answer = servingAt(origin, () => route.handler({ account, principal, params, query, body }));
    const reply = answer instanceof Promise ? await answer : answer;
    if (route.write && (faults.dropAfterWrite ?? 0) > parts.random()) {
      stats.record(method, pattern, 'dropped');
      req.socket.destroy();
      return;
    }
    send(res, operationId, reply);
    stats.record(method, pattern, reply.status);
  } catch (err) {
    const failure =
      err instanceof ApiFailure
        ? err
        : new ApiFailure(500, ErrorCode.internal, 'internal error', {
            reason: err instanceof Error ? err.message : String(err),
          });
    // A body the handler never read (refused before or while reading it) is drained, bounded.
    drainUnreadBody(req);
    if (!res.headersSent) sendFailure(res, operationId, failure);
    stats.record(method, pattern, failure.status);
  }
}
