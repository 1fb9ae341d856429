/**
 * The daemon's HTTP endpoints: `/healthz` (alive), `/readyz` (last reconcile succeeded, or why not),
 * `/status` (last reconcile, drift and error), `/metrics`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { UsageError, UserError } from '../errors.js';
import { cappedDetails } from './details.js';
import { notConvergingLine, type NotConverging } from './convergence.js';
import type { DriftEvent } from './drift.js';
import type { ReconcileRecord } from './loop.js';
import type { WatchMetrics } from './metrics.js';
import type { RunningStatus } from './progress.js';
import type { ConfigRevision, Trigger, WatchMode } from './types.js';

/** A finished reconcile in the endpoints' answers. */
interface ReconcileSummary {
  readonly id: string;
  readonly trigger: string;
  readonly status: string;
  readonly finishedAt: string;
  readonly durationMs: number;
  readonly planned: number;
  readonly applied: number;
}

/** The `/readyz` body. */
interface Readiness {
  readonly ready: boolean;
  /** Why not ready, one line; absent when ready. */
  readonly reason?: string;
  /** Diagnostics or failed operations behind `reason`, the first 20. */
  readonly details?: readonly string[];
  /** How many more details there are. */
  readonly moreDetails?: number;
  readonly lastReconcile?: ReconcileSummary;
  readonly lastSuccessAt?: string;
  /** Consecutive failed reconciles. */
  readonly failures: number;
  /** Objects whose writes do not converge and are held back, one line each (`convergence.ts`). */
  readonly notConverging?: readonly string[];
}

/** What `/status` shows of the daemon as it is now, besides finished reconciles. */
interface LiveStatus {
  /** The environment the daemon keeps; null for a config without environments. */
  readonly environment?: string | null;
  /** The API's origin. */
  readonly api?: string;
  /** The config the last plan was made from. */
  readonly config?: ConfigRevision;
  /** The reconcile running now. */
  readonly running?: RunningStatus;
  /** The next reconcile scheduled, when none runs. */
  readonly nextRun?: { readonly trigger: Trigger; readonly at: string };
}

/** The `/status` body: what an operator asks a running daemon. */
interface DaemonStatus extends LiveStatus {
  readonly mode: WatchMode;
  readonly ready: boolean;
  readonly lastReconcile?: ReconcileSummary;
  readonly lastSuccessAt?: string;
  /** The last reconcile that found drifted objects, and those objects. */
  readonly lastDrift?: {
    readonly reconcile: string;
    readonly at: string;
    readonly objects: readonly DriftEvent[];
  };
  /** Objects whose same write was sent twice and planned again: held back, not sent. */
  readonly notConverging?: readonly NotConverging[];
  /** The last reconcile that did not succeed, kept after recovery. */
  readonly lastError?: {
    readonly reconcile: string;
    readonly at: string;
    readonly status: string;
    readonly reason: string;
    readonly details?: readonly string[];
    readonly moreDetails?: number;
  };
}

const finishedAt = (record: ReconcileRecord): Date =>
  new Date(record.startedAt.getTime() + record.durationMs);

function summaryOf(record: ReconcileRecord): ReconcileSummary {
  return {
    id: record.id,
    trigger: record.trigger,
    status: record.result.status,
    finishedAt: finishedAt(record).toISOString(),
    durationMs: record.durationMs,
    planned: record.result.planned,
    applied: record.result.applied.length,
  };
}

/** Folds reconcile records into the `/readyz` and `/status` answers. */
export class ReadinessState {
  readonly #mode: WatchMode;
  readonly #live: () => LiveStatus;
  #last: ReconcileRecord | undefined;
  #lastSuccessAt: Date | undefined;
  #lastDrift: DaemonStatus['lastDrift'];
  #lastError: DaemonStatus['lastError'];
  /** As the last reconcile that planned against the account found them. */
  #notConverging: readonly NotConverging[] = [];

  constructor(mode: WatchMode = 'reconcile', live: () => LiveStatus = () => ({})) {
    this.#mode = mode;
    this.#live = live;
  }

  /** Records a finished reconcile. */
  record(record: ReconcileRecord): void {
    // A stop says nothing of the account or the config: readiness stays what it was.
    if (record.result.status === 'stopped') return;
    this.#last = record;
    const at = finishedAt(record);
    const { result } = record;
    if (result.status === 'success') this.#lastSuccessAt = at;
    else if (result.status !== 'standby')
      this.#lastError = {
        reconcile: record.id,
        at: at.toISOString(),
        status: result.status,
        reason: result.reason ?? 'no reason given',
        ...cappedDetails(result.details),
      };
    if (record.drift)
      this.#lastDrift = { reconcile: record.id, at: at.toISOString(), objects: result.drift ?? [] };
    if (result.status === 'success' || result.status === 'failed')
      this.#notConverging = result.notConverging ?? [];
  }

  /** `notConverging` of an answer, when there are any. */
  #stuck(): { readonly notConverging?: readonly string[] } {
    return this.#notConverging.length === 0
      ? {}
      : { notConverging: this.#notConverging.map(notConvergingLine) };
  }

  /** The `/status` answer. */
  get status(): DaemonStatus {
    const last = this.#last;
    return {
      mode: this.#mode,
      ready: last?.result.status === 'success',
      ...this.#live(),
      ...(last === undefined ? {} : { lastReconcile: summaryOf(last) }),
      ...(this.#lastSuccessAt === undefined ? {} : { lastSuccessAt: this.#lastSuccessAt.toISOString() }),
      ...(this.#lastDrift === undefined ? {} : { lastDrift: this.#lastDrift }),
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#notConverging.length === 0 ? {} : { notConverging: this.#notConverging }),
    };
  }

  /** The current answer. */
  get current(): Readiness {
    const last = this.#last;
    const since =
      this.#lastSuccessAt === undefined ? {} : { lastSuccessAt: this.#lastSuccessAt.toISOString() };
    if (last === undefined)
      return { ready: false, reason: 'no reconcile has finished yet', failures: 0, ...since };
    const { result } = last;
    const lastReconcile = summaryOf(last);
    if (result.status === 'success')
      return { ready: true, lastReconcile, failures: 0, ...since, ...this.#stuck() };
    // Another process holds the scope (docs/lease.md): not an error, and the details name it.
    if (result.status === 'standby')
      return {
        ready: false,
        reason: 'standby',
        details: result.details ?? [],
        lastReconcile,
        failures: 0,
        ...since,
      };
    return {
      ready: false,
      reason: `${result.status}: ${result.reason ?? 'no reason given'}`,
      ...cappedDetails(result.details),
      lastReconcile,
      failures: last.failures,
      ...since,
      ...this.#stuck(),
    };
  }
}

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
      send(res, 404, 'text/plain; charset=utf-8', 'not found: try /healthz, /readyz, /status or /metrics\n');
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
