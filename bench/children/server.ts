/**
 * A server in its own process, so that load generator and server do not share an event loop:
 * `emulator` runs the acctsync emulator; `bare` is a plain node:http server answering every
 * request with a fixed JSON payload of the given size (GET and POST sizes separately).
 * Reports `{ url, token }` over IPC, answers `'cpu'` with its CPU time, stops on `'stop'`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator } from '../../src/emulator/index.js';

export interface ServerSpec {
  readonly mode: 'emulator' | 'bare';
  readonly rateLimitPerMinute?: number;
  readonly dataFile?: string;
  readonly getBytes?: number;
  readonly postBytes?: number;
}

function payload(bytes: number): Buffer {
  const filler = 'x'.repeat(Math.max(0, bytes - 12));
  return Buffer.from(`{"filler":"${filler}"}`);
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ServerSpec;
  let close: () => Promise<void>;
  if (spec.mode === 'emulator') {
    const emulator = await startEmulator({
      token: 'bench-token',
      ...(spec.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: spec.rateLimitPerMinute }),
      ...(spec.dataFile === undefined ? {} : { dataFile: spec.dataFile }),
    });
    process.send?.({ url: emulator.url, token: emulator.token });
    close = () => emulator.close();
  } else {
    const get = payload(spec.getBytes ?? 1000);
    const post = payload(spec.postBytes ?? 500);
    const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = req.method === 'GET' ? get : post;
        res.writeHead(req.method === 'POST' ? 201 : 200, {
          'content-type': 'application/json',
          'content-length': body.length,
        });
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `http://127.0.0.1:${port}`, token: 'bare' });
    close = async () => {
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
    };
  }
  process.on('message', (message) => {
    if (message === 'stop') {
      void close().finally(() => process.exit(0));
    } else if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMs: (user + system) / 1000 });
    }
  });
  // A parent that dies must not leave the server behind.
  process.on('disconnect', () => {
    void close().finally(() => process.exit(0));
  });
}

void main();
