/**
 * Bounded waits, as an operator meets them: an API that accepts connections and never answers
 * makes `plan` fail within about a minute by default, saying why, with every retry on stderr; a
 * rate limit answered with `Retry-After` is waited out instead of failing the plan.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startCliAccount, type CliAccount } from './support.js';

const config = `version: 1
scope: waits
ip_policies:
  office:
    description: Office networks
`;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  await account.write('account/network.yaml', config);
});
afterEach(async () => {
  await account.close();
});

/** A local socket that accepts connections and never writes a byte. */
async function blackHole(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

it('fails a plan against an API that never answers within about a minute, retries shown', async () => {
  const hole = await blackHole();
  try {
    const started = Date.now();
    const run = await account.acctsync(['plan'], { SVC_API_URL: hole.url, SVC_API_KEY: 'waits-key' });
    const seconds = (Date.now() - started) / 1000;
    expect(run.code).toBe(1);
    expect(seconds).toBeLessThan(60);
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^error: GET \/\S+: no complete response within 6000 ms$/);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^acctsync: retrying GET \/\S+ \(attempt 1 of 4 failed: no answer within 6 s\); next try in \d+(\.\d)? s$/,
      ),
    );
    expect(run.stderr).toMatch(/attempt 3 of 4 failed/);
    expect(run.stderr).not.toContain('internal error');
  } finally {
    await hole.close();
  }
}, 90_000);

it('stops at --deadline with a message naming the deadline and the last failure', async () => {
  const hole = await blackHole();
  try {
    const started = Date.now();
    const run = await account.acctsync(['plan', '--timeout', '1s', '--deadline', '2500ms'], {
      SVC_API_URL: hole.url,
      SVC_API_KEY: 'waits-key',
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(
      /^error: GET \/\S+: the deadline of 2\.5 s for this command passed \(last failure: no answer within 1 s\)$/,
    );
  } finally {
    await hole.close();
  }
}, 30_000);

it('plans through 40% of requests answered 429 with Retry-After: 1', async () => {
  await account.close();
  account = await startCliAccount({ faults: { error429: 0.4, seed: 17 } });
  await account.write('account/network.yaml', config);
  const run = await account.acctsync(['plan', '--output', 'json']);
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ summary: { create: 1 } });
  // The waits were real, reported, and did not use up attempts.
  expect(run.stderr).toMatch(
    /retrying GET \/\S+ \(attempt \d+, not counted failed: 429 ERR_SVC_\d+\); next try in 1 s/,
  );
}, 120_000);
