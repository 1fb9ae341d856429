/**
 * A fault-injecting HTTP proxy on loopback, between acctsync's client and the emulator. Unlike the
 * emulator's own faults it breaks the transport: connections reset before the request reaches the
 * server, responses lost after the server committed the write, bodies cut short or trickled slowly,
 * added latency.
 */
import {
  createServer,
  request,
  Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { listening } from '../../support/forwarders.js';
import type { Rng } from './prng.js';

export type ProxyFault =
  /** RST the client's connection before forwarding: the server never sees the request. */
  | 'reset-before'
  /** Forward, let the server answer (and commit), then RST the client's connection. */
  | 'reset-after-commit'
  /** Forward, send the status line and half the body, then destroy the connection. */
  | 'truncate-body'
  /** Forward, then trickle the response body in small chunks over a few hundred milliseconds. */
  | 'slow-body'
  /** Wait before forwarding. */
  | 'latency';

export interface ProxyOptions {
  readonly upstream: string;
  readonly rng: Rng;
  /** Probability of each fault per request (checked in this order; at most one applies). */
  readonly faults: Partial<Record<ProxyFault, number>>;
  /** Only requests with these methods get faults (default: all). */
  readonly methods?: readonly string[];
  /** A fault chosen for one request (by method and path), instead of the random ones. */
  readonly faultFor?: (method: string, path: string) => ProxyFault | undefined;
  /**
   * An answer the proxy gives instead of forwarding, from the request (the live service's error
   * messages that quote a rejected value, which the emulator never does).
   */
  readonly answerFor?: (
    method: string,
    path: string,
    body: string,
  ) => { readonly status: number; readonly body: string } | undefined;
  /** Called for each request before it is forwarded (the kill-sync test counts writes). */
  readonly onRequest?: (method: string, path: string, seq: number) => void | Promise<void>;
  /** Called after the upstream answered, before the answer is relayed. */
  readonly onUpstreamResponse?: (method: string, path: string, seq: number) => void | Promise<void>;
}

export interface RunningProxy {
  readonly url: string;
  /** Faults injected so far, by kind. */
  readonly injected: Map<ProxyFault, number>;
  setFaults(faults: Partial<Record<ProxyFault, number>>): void;
  close(): Promise<void>;
}

const order: readonly ProxyFault[] = [
  'reset-before',
  'reset-after-commit',
  'truncate-body',
  'slow-body',
  'latency',
];

function reset(socket: Socket): void {
  // resetAndDestroy sends a TCP RST (ECONNRESET on the client), not a clean FIN.
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const upstream = new URL(options.upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let faults = options.faults;
  const injected = new Map<ProxyFault, number>();
  let requests = 0;

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: upstream.host };
      const up = request(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const method = req.method ?? 'GET';
    const path = req.url ?? '/';
    const seq = ++requests;
    const own = options.answerFor?.(method, path, Buffer.concat(chunks).toString('utf8'));
    if (own !== undefined) {
      res.writeHead(own.status, { 'content-type': 'application/json' });
      res.end(own.body);
      return;
    }
    const eligible = options.methods === undefined || options.methods.includes(method);
    const fault =
      options.faultFor?.(method, path) ??
      (eligible ? order.find((f) => options.rng.chance(faults[f] ?? 0)) : undefined);
    if (fault !== undefined) injected.set(fault, (injected.get(fault) ?? 0) + 1);
    if (fault === 'reset-before') {
      reset(req.socket);
      return;
    }
    if (fault === 'latency') await delay(20 + options.rng.int(150));
    await options.onRequest?.(method, path, seq);
    let answer;
    try {
      answer = await forward(req, Buffer.concat(chunks));
    } catch {
      reset(req.socket);
      return;
    }
    await options.onUpstreamResponse?.(method, path, seq);
    if (fault === 'reset-after-commit') {
      reset(req.socket);
      return;
    }
    const headers = { ...answer.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    delete headers['transfer-encoding'];
    headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, headers);
    if (fault === 'truncate-body' && answer.body.length > 1) {
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      await delay(5);
      req.socket.destroy();
      return;
    }
    if (fault === 'slow-body' && answer.body.length > 0) {
      const pieces = 4;
      const size = Math.ceil(answer.body.length / pieces);
      for (let i = 0; i < answer.body.length; i += size) {
        res.write(answer.body.subarray(i, i + size));
        await delay(40 + options.rng.int(60));
      }
      res.end();
      return;
    }
    res.end(answer.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  const listener = await listening(server);
  return {
    url: listener.url,
    injected,
    setFaults(f) {
      faults = f;
    },
    async close() {
      await listener.close();
      agent.destroy();
    },
  };
}
