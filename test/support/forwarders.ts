/**
 * What stands between a client and an emulator in the field, on loopback ports of their own: a
 * port-forward (`kubectl port-forward`, `docker run -p`: bytes relayed, the client's Host kept) and
 * a reverse proxy (the Host rewritten to the upstream's, the client's in `X-Forwarded-*`).
 */
import { once } from 'node:events';
import { createServer as createHttpServer, request, type IncomingHttpHeaders } from 'node:http';
import {
  connect,
  createServer as createTcpServer,
  type AddressInfo,
  type Server,
  type Socket,
} from 'node:net';

export interface Forwarder extends AsyncDisposable {
  /** Where clients reach the upstream through it. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Listens on a loopback port; `close` stops the server and cuts every socket it accepted, and any
 * other socket added to `sockets` (the upstream side of a relay).
 */
export async function listening(server: Server, sockets: Set<Socket> = new Set()): Promise<Forwarder> {
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      const closed = once(server, 'close');
      server.close();
      for (const s of sockets) s.destroy();
      await closed;
    })());
  return { url: `http://127.0.0.1:${port}`, close, [Symbol.asyncDispose]: close };
}

/** Relays bytes both ways to `upstream`, as a port-forward does. */
export function startPortForward(upstream: string): Promise<Forwarder> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const up = connect(Number(target.port), target.hostname);
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    client.pipe(up).pipe(client);
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
  });
  return listening(server, sockets);
}

/**
 * Forwards each request to `upstream` with Host rewritten to the upstream's, as nginx's
 * `proxy_pass` does; with `forwardedHeaders`, says the client's scheme and Host in
 * `X-Forwarded-Proto` and `X-Forwarded-Host`.
 */
export function startReverseProxy(upstream: string, forwardedHeaders: boolean): Promise<Forwarder> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
    if (forwardedHeaders) {
      headers['x-forwarded-proto'] = 'http';
      headers['x-forwarded-host'] = req.headers.host ?? '';
    }
    const up = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return listening(server, sockets);
}
