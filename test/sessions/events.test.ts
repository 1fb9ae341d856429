import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from '../support/cli.js';
import { useAccount } from '../support/use-account.js';

const account = useAccount({}, 'file');

beforeAll(async () => {
  const destination = (
    await account.client.post<{ id: string }>('/event_destinations', {
      target: { monitoring: { api_key: 'k', site: 'example.com' } },
    })
  ).body.id;
  await account.client.post('/event_subscriptions', {
    sources: [{ type: 'ip_policy_created.v0' }],
    destination_ids: [destination],
  });
});

describe('acctsync events', { timeout: 60_000 }, () => {
  it('shows the deliveries the emulator recorded, as text and as JSON lines', async () => {
    const policy = (await account.client.post<{ id: string }>('/ip_policies', { description: 'office' })).body
      .id;
    const text = await runCliAgainst(['events'], account);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`ip_policy_created\\.v0  ${policy}  -> ed_`));
    const json = await runCliAgainst(['events', '--output', 'json'], account);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: { object: { id: string } } });
    expect(lines.map((l) => l.event.object.id)).toContain(policy);
  });

  it('follows new deliveries until interrupted', async () => {
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '../../dist/cli/main.js'), 'events', '--follow'],
      {
        env: { PATH: process.env.PATH ?? '', ...account.env },
      },
    );
    let stdout = '';
    const seen = (needle: string) =>
      new Promise<void>((resolve) => {
        const check = () => (stdout.includes(needle) ? resolve() : undefined);
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          check();
        });
        check();
      });
    const first = (await account.client.post<{ id: string }>('/ip_policies', { description: 'first' })).body
      .id;
    await seen(first);
    const second = (await account.client.post<{ id: string }>('/ip_policies', { description: 'second' })).body
      .id;
    await seen(second);
    child.kill('SIGINT');
    const [code] = (await once(child, 'close')) as [number | null];
    expect(code).toBe(0);
    expect(stdout.split(first).length).toBe(2);
  });

  it('says clearly that it works only with the emulator', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error_code: 'ERR_SVC_404',
          status_code: 404,
          msg: 'Resource not found',
          details: {},
        }),
      );
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await runCliAgainst(['events'], { url, token: 'live-key' });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `error: acctsync events works only with the acctsync emulator; ${url} is not one`,
      );
      expect(result.stderr).not.toContain('live-key');
    } finally {
      server.close();
    }
  });
});
