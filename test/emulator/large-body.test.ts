/**
 * A body over the limit is answered 413 while the client is still sending it, and the client
 * reads that answer: the emulator reads and drops the rest (bounded) instead of closing the
 * connection under a client that is still writing (EPIPE, or a reset that loses the answer).
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LINGER_BYTES } from '../../src/emulator/request-body.js';
import { useEmulator } from './harness.js';

const h = useEmulator();
const megabytes3 = 3 * 1024 * 1024;

interface Exchange {
  readonly socket: Socket;
  /** Everything the server sent so far. */
  readonly received: () => string;
  /** Resolves when the connection is closed, with the socket error if there was one. */
  readonly closed: Promise<string | undefined>;
}

function open(): Exchange {
  const url = new URL(h.emulator.url);
  const socket = connect(Number(url.port), url.hostname);
  let text = '';
  let error: string | undefined;
  socket.setEncoding('latin1').on('data', (c: string) => (text += c));
  socket.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
  // Not events.once: it rejects on the socket's error, which is an outcome here.
  const closed = new Promise<string | undefined>((resolve) => socket.once('close', () => resolve(error)));
  return { socket, received: () => text, closed };
}

function head(method: string, path: string, framing: string): string {
  const url = new URL(h.emulator.url);
  return (
    `${method} ${path} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${h.emulator.token}\r\n` +
    `Svc-Version: 2\r\nContent-Type: application/json\r\n${framing}\r\n`
  );
}

/** Writes `size` bytes of body a piece per tick, the way a client uploading a large body does. */
async function trickle(ex: Exchange, size: number, chunked: boolean): Promise<void> {
  const piece = Buffer.alloc(64 * 1024, 'a');
  for (let left = size; left > 0 && !ex.socket.destroyed; left -= piece.length) {
    const data = chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece;
    if (!ex.socket.write(data))
      await Promise.race([new Promise((resolve) => ex.socket.once('drain', resolve)), ex.closed]);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (chunked && !ex.socket.destroyed) ex.socket.write('0\r\n\r\n');
}

async function policyPath(): Promise<string> {
  const created = await h.call('POST', '/ip_policies', { description: 'large bodies' });
  return `/ip_policies/${(created.body as { id: string }).id}`;
}

describe('a body over the limit', () => {
  it('a client still sending a 3 MB PATCH reads the 413, run after run', async () => {
    const path = await policyPath();
    const outcomes: string[] = [];
    for (let run = 0; run < 24; run++) {
      const chunked = run % 2 === 1;
      const ex = open();
      ex.socket.write(
        head('PATCH', path, chunked ? 'Transfer-Encoding: chunked\r\n' : `Content-Length: ${megabytes3}\r\n`),
      );
      await trickle(ex, megabytes3, chunked);
      ex.socket.end();
      const error = await ex.closed;
      outcomes.push(
        `${/^HTTP\/1\.1 (\d{3})/.exec(ex.received())?.[1] ?? 'no answer'}${error ? ` ${error}` : ''}`,
      );
    }
    expect(outcomes).toEqual(new Array<string>(24).fill('413'));
    const after = (await h.call('GET', path)).body as { description: string };
    expect(after.description).toBe('large bodies');
  });

  it('keeps the connection for the next request once the refused body has been read', async () => {
    const path = await policyPath();
    const ex = open();
    ex.socket.write(head('PATCH', path, `Content-Length: ${megabytes3}\r\n`));
    await trickle(ex, megabytes3, false);
    ex.socket.write(head('GET', path, ''));
    while (!/HTTP\/1\.1 200 /.test(ex.received()) && !ex.socket.destroyed) await once(ex.socket, 'data');
    expect(ex.received()).toMatch(/^HTTP\/1\.1 413 [\s\S]*HTTP\/1\.1 200 /);
    ex.socket.destroy();
  });

  it('drops a client that keeps sending beyond the bound, after answering it', async () => {
    const path = await policyPath();
    const ex = open();
    const endless = 4 * LINGER_BYTES;
    ex.socket.write(head('PATCH', path, `Content-Length: ${endless}\r\n`));
    await trickle(ex, endless, false);
    await ex.closed;
    expect(ex.received()).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('drops a client that stops sending the rest, after answering it', async () => {
    const path = await policyPath();
    const ex = open();
    ex.socket.write(head('PATCH', path, `Content-Length: ${megabytes3}\r\n`));
    ex.socket.write('{"description": "');
    await ex.closed;
    expect(ex.received()).toMatch(/^HTTP\/1\.1 413 /);
  });
});
