/**
 * The daemon's port, as whoever reaches it meets it: connections that send nothing, or send their
 * headers a byte at a time, are closed within seconds, and however many are held open the probes
 * are still answered (the spawned CLI's `watch`, its listener on a free port).
 */
import { get as httpGet } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serverLimits } from '../../src/watch/health.js';
import { policyFile, startReady, waitFor } from './daemon-harness.js';

/** A raw connection to the daemon's port, and when it was closed by the other side. */
interface Held {
  readonly socket: Socket;
  readonly openedAt: number;
  closedAt?: number;
}

async function hold(url: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const held: Held = { socket, openedAt: Date.now() };
  socket.once('close', () => (held.closedAt = Date.now()));
  // Whatever the server answers (a 408) is read and dropped.
  socket.resume();
  return held;
}

/** GET on a connection of its own (a pooled one may be one the cap closed). */
function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { agent: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on('error', reject);
  });
}

describe('the daemon HTTP port: timeouts and a connection cap', { timeout: 120_000 }, () => {
  it('closes a connection that sends nothing within seconds', async (context) => {
    const d = await startReady(context, { files: { 'p.yaml': policyFile('office') } });
    const silent = await hold(d.url);
    await waitFor('the silent connection to be closed', () => silent.closedAt !== undefined, 30_000);
    // The idle limit, with room for a loaded machine; Node's default would keep it for minutes.
    expect(silent.closedAt! - silent.openedAt).toBeLessThan(serverLimits.idleMs + 10_000);
    expect(silent.closedAt! - silent.openedAt).toBeGreaterThanOrEqual(serverLimits.idleMs - 1_000);
  });

  it('closes a connection that sends its headers a line at a time past the header timeout', async (context) => {
    const d = await startReady(context, { files: { 'p.yaml': policyFile('office') } });
    const slow = await hold(d.url);
    slow.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => {
      if (slow.closedAt === undefined) slow.socket.write('X-Slow: 1\r\n');
    }, 500);
    try {
      await waitFor('the slow connection to be closed', () => slow.closedAt !== undefined, 30_000);
    } finally {
      clearInterval(drip);
    }
    expect(slow.closedAt! - slow.openedAt).toBeLessThan(serverLimits.headersMs + 10_000);
  });

  it('answers /healthz at once with many more silent connections open than the cap', async (context) => {
    const d = await startReady(context, { files: { 'p.yaml': policyFile('office') } });
    const count = serverLimits.connections * 3;
    const held: Held[] = [];
    for (let i = 0; i < count; i++) held.push(await hold(d.url));
    try {
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        expect(await get(`${d.url}/healthz`)).toEqual({ status: 200, body: 'ok\n' });
        expect(Date.now() - started).toBeLessThan(5_000);
      }
      // The cap closed the oldest idle ones to make room; the daemon never holds more than it.
      await waitFor(
        `at most ${serverLimits.connections} of the held connections open`,
        () => held.filter((h) => h.closedAt === undefined).length <= serverLimits.connections,
      );
      expect((await get(`${d.url}/readyz`)).status).toBe(200);
    } finally {
      for (const h of held) h.socket.destroy();
    }
  });
});
