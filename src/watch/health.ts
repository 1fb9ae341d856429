/**
 * The daemon's HTTP endpoints: `/` (the status page), `/healthz` (alive), `/readyz` (last reconcile
 * succeeded, or why not), `/status` (last reconcile, drift and error), `/metrics`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { UsageError, UserError } from '../errors.js';
import type { WatchMetrics } from './metrics.js';
import type { ReadinessState } from './readiness.js';
import { renderStatusPage, statusPageHeaders } from './status-page.js';

/** `host:port`, `[v6]:port` or `:port` (all interfaces). */
export function parseListen(text: string): { readonly host: string; readonly port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[3]) : NaN;
  if (match === null || port > 65_535) {
    throw new UsageError(`--listen ${text} is not an address: write it like 127.0.0.1:9464 or 0.0.0.0:9464`);
  }
  return { host: match[1] ?? (match[2] || '0.0.0.0'), port };
}

export interface HealthServer {
  /** `http://host:port`, with the port actually bound (tests listen on port 0). */
  readonly url: string;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  readiness: ReadinessState,
  metrics: WatchMetrics,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(res, 405, 'text/plain; charset=utf-8', 'method not allowed\n');
    return;
  }
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  switch (path) {
    case '/': {
      const nonce = randomBytes(16).toString('base64');
      res.writeHead(200, statusPageHeaders(nonce));
      res.end(req.method === 'HEAD' ? undefined : renderStatusPage(readiness.view, nonce));
      return;
    }
    // A browser opening the page asks for it: no icon, and no 404 in its console.
    case '/favicon.ico':
      res.writeHead(204, { 'cache-control': 'max-age=86400' }).end();
      return;
    case '/healthz':
      send(res, 200, 'text/plain; charset=utf-8', 'ok\n');
      return;
    case '/readyz': {
      const state = readiness.current;
      send(res, state.ready ? 200 : 503, 'application/json', `${JSON.stringify(state, null, 2)}\n`);
      return;
    }
    case '/status':
      send(res, 200, 'application/json', `${JSON.stringify(readiness.status, null, 2)}\n`);
      return;
    case '/metrics': {
      const { contentType, text } = await metrics.render();
      send(res, 200, contentType, text);
      return;
    }
    default:
      send(
        res,
        404,
        'text/plain; charset=utf-8',
        'not found: try /, /healthz, /readyz, /status or /metrics\n',
      );
  }
}

/** A port taken or forbidden is the operator's to fix (another exporter often holds 9464): one clear line, exit 1. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (err.code === 'EADDRINUSE') {
    return new UserError(
      `--listen ${where}: the port is already in use; choose another with --listen HOST:PORT`,
      {
        cause: err,
      },
    );
  }
  if (err.code === 'EACCES') {
    return new UserError(`--listen ${where}: permission denied; use a port above 1023 or another address`, {
      cause: err,
    });
  }
  if (err.code === 'EADDRNOTAVAIL') {
    return new UserError(`--listen ${where}: this machine has no such address`, { cause: err });
  }
  return err;
}

/**
 * The endpoints answer probes and a scraper: small GETs. Whoever else reaches the port must not
 * hold connections (and the daemon's file descriptors) open: a connection idle this long is
 * closed, and so is one whose headers or request take longer.
 */
export const serverLimits = {
  idleMs: 5_000,
  headersMs: 5_000,
  requestMs: 10_000,
  /** Open connections at most; past it the oldest one with no request in progress is closed. */
  connections: 64,
  requestsPerConnection: 100,
} as const;

/**
 * Caps open connections. A new one past the cap closes the oldest idle one rather than being
 * refused: a probe arriving while idle connections fill the cap is answered.
 */
function capConnections(server: Server, cap: number): void {
  const open = new Set<Socket>();
  const busy = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      busy.delete(socket);
    });
    if (open.size <= cap) return;
    const idle = [...open].find((s) => !busy.has(s) && s !== socket);
    (idle ?? socket).destroy();
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
  });
}

/** Starts the endpoints on `host:port`. */
export async function startHealthServer(options: {
  readonly host: string;
  readonly port: number;
  readonly readiness: ReadinessState;
  readonly metrics: WatchMetrics;
}): Promise<HealthServer> {
  const server = createServer(
    {
      headersTimeout: serverLimits.headersMs,
      requestTimeout: serverLimits.requestMs,
      keepAliveTimeout: serverLimits.idleMs,
      // How often the header and request deadlines are checked; Node's default is 30 s.
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      handle(req, res, options.readiness, options.metrics).catch((err: unknown) => {
        if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `${String(err)}\n`);
        else res.destroy();
      });
    },
  );
  // A connection that sends nothing is closed after this long, headers or not.
  server.timeout = serverLimits.idleMs;
  server.maxRequestsPerSocket = serverLimits.requestsPerConnection;
  capConnections(server, serverLimits.connections);
  await new Promise<void>((resolve, reject) => {
    const fail = (err: NodeJS.ErrnoException): void => reject(listenError(err, options.host, options.port));
    server.once('error', fail);
    server.listen(options.port, options.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        // Scrapers and probes hold keep-alive connections; close() alone would wait for them.
        server.closeAllConnections();
      }),
  };
}
