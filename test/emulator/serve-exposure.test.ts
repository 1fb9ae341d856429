/**
 * `acctsync serve` as other people's tests run it: the control surface answers only an admin's key
 * (a key the code under test was given cannot inject faults or make itself an admin), and a short
 * token on an address beyond loopback is warned about.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/cli.js';

const adminToken = 'admin-token-for-the-control-surface-test';

let dir: string;
let serve: ServeProcess | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acctsync-serve-'));
});
afterEach(async () => {
  await serve?.stop();
  serve = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      'Svc-Version': '2',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

describe('acctsync serve: the control surface', { timeout: 60_000 }, () => {
  it("refuses a non-admin key: no faults, no admin users, no other route of /_emulator/; the admin's key passes", async () => {
    serve = await startServe(['--token', adminToken], dir);
    const { url } = serve;
    const user = await call(url, adminToken, 'POST', '/_emulator/users', { admin: false });
    expect(user.status).toBe(201);
    const key = await call(url, adminToken, 'POST', '/api_keys', {
      description: 'the code under test',
      owner_id: user.body.id,
    });
    expect(key.status).toBe(201);
    const token = String(key.body.token);

    // The key works for the API it was made for.
    expect((await call(url, token, 'GET', '/ip_policies')).status).toBe(200);
    for (const [method, path, body] of [
      ['PUT', '/_emulator/faults', { error500: 1 }],
      ['POST', '/_emulator/users', { admin: true }],
      ['POST', '/_emulator/bots', {}],
      ['GET', '/_emulator/principals', undefined],
      ['GET', '/_emulator/stats', undefined],
      ['DELETE', '/_emulator/deliveries', undefined],
    ] as const) {
      const refused = await call(url, token, method, path, body);
      expect({ method, path, status: refused.status, msg: refused.body.msg }).toEqual({
        method,
        path,
        status: 403,
        msg: 'the emulator control surface needs an admin key',
      });
    }
    // Nothing the refused calls asked for happened.
    expect((await call(url, token, 'GET', '/ip_policies')).status).toBe(200);
    const principals = await call(url, adminToken, 'GET', '/_emulator/principals');
    expect((principals.body.principals as Array<{ admin: boolean }>).filter((p) => p.admin)).toHaveLength(1);
    expect((await call(url, adminToken, 'GET', '/_emulator/faults')).body).toEqual({});
  });
});

/** Everything `serve` printed, stdout and stderr, once it stopped and both pipes closed. */
async function printedBy(args: readonly string[]): Promise<string> {
  const started = await startServe(args, dir);
  const closed = once(started.child, 'close');
  await started.stop();
  await closed;
  return started.output();
}

describe('acctsync serve: --host beyond loopback', { timeout: 60_000 }, () => {
  it('a short token on all interfaces is warned about, without printing it', async () => {
    const output = await printedBy(['--host', '0.0.0.0', '--token', 'test-token']);
    expect(output).toContain(
      'warning: serve --host 0.0.0.0 listens beyond this machine with a --token of 10 characters',
    );
    expect(output).not.toContain('test-token');
  });

  it('a long token on all interfaces, or a short one on loopback, is not', async () => {
    expect(await printedBy(['--host', '0.0.0.0', '--token', adminToken])).not.toContain('warning');
    expect(await printedBy(['--token', 'test-token'])).not.toContain('warning');
  });
});
