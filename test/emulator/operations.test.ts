/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- responses are arbitrary JSON read member by member */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAccount, type TestAccount } from '../support/account.js';
import { startServe } from '../support/cli.js';
import { callEmulator, useEmulator } from './harness.js';

const h = useEmulator();

describe('owners', () => {
  it('lets only admins name another owner', async () => {
    const user = (await h.call('POST', '/_emulator/users', { admin: false })).body.id;
    const bot = (await h.call('POST', '/_emulator/bots', {})).body.id;
    expect(bot).toMatch(/^bot_/);
    const key = await h.call('POST', '/api_keys', { owner_id: user });
    expect(key.body.owner_id).toBe(user);
    const asUser = { token: key.body.token as string };
    expect((await h.call('POST', '/api_keys', {}, asUser)).body.owner_id).toBe(user);
    const denied = await h.call(
      'POST',
      '/ssh_credentials',
      { owner_id: h.emulator.adminUserId, public_key: 'x' },
      asUser,
    );
    const forbidden = await h.call('POST', '/api_keys', { owner_id: bot }, asUser);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error_code).toBe('ERR_SVC_102');
    expect(denied.status).toBe(400);
    expect((await h.call('POST', '/credentials', { owner_id: 'usr_nobody' })).body.error_code).toBe(
      'ERR_SVC_223',
    );
  });
});

describe('faults and limits', () => {
  it('injects 500, 503 and 429, latency, and drops connections after the write', async () => {
    for (const [fault, status] of [
      ['error500', 500],
      ['error503', 503],
      ['error429', 429],
    ] as const) {
      h.emulator.setFaults({ [fault]: 1 });
      const res = await h.call('GET', '/ip_policies');
      expect(res.status).toBe(status);
    }
    h.emulator.setFaults({ latencyMs: 150 });
    const started = Date.now();
    await h.call('GET', '/ip_policies');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const set = await h.call('PUT', '/_emulator/faults', { dropAfterWrite: 1 });
    expect(set.body).toEqual({ dropAfterWrite: 1 });
    await expect(h.call('POST', '/ip_policies', { description: 'dropped' })).rejects.toThrow();
    h.emulator.setFaults({});
    const list = await h.call('GET', '/ip_policies');
    expect(list.body.ip_policies.some((p: { description: string }) => p.description === 'dropped')).toBe(
      true,
    );
    expect((await h.call('PUT', '/_emulator/faults', { error500: 2 })).status).toBe(400);
  });

  it('replays the same faults for the same seed, so a failing run can be reproduced', async () => {
    const statuses = async (seed: number) => {
      await h.call('PUT', '/_emulator/faults', { error503: 0.5, seed });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await h.call('GET', '/ip_policies')).status);
      return out;
    };
    const first = await statuses(7);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses(7)).toEqual(first);
    expect(await statuses(8)).not.toEqual(first);
    h.emulator.setFaults({});
  });

  it('counts requests by method, route and status', async () => {
    h.emulator.resetStats();
    await h.call('GET', '/ip_policies/ipp_00000000000');
    await h.call('GET', '/ip_policies/ipp_00000000001');
    expect(h.emulator.stats().routes).toEqual([
      { method: 'GET', route: '/ip_policies/{id}', status: 404, count: 2 },
    ]);
  });

  it('rate limits with 429 and Retry-After', async () => {
    await using emulator = await startAccount({ rateLimitPerMinute: 3 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await callEmulator(emulator, 'GET', '/ip_policies')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await callEmulator(emulator, 'GET', '/ip_policies');
    expect(limited.body.error_code).toBe('ERR_SVC_226');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await callEmulator(emulator, 'GET', '/_emulator/stats')).status).toBe(200);
  });
});

describe('persistence', () => {
  it('saves atomically and loads the state back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-emu-'));
    const file = join(dir, 'state.json');
    const first = await startAccount({ dataFile: file, token: 'persist' });
    const policy = (await callEmulator(first, 'POST', '/ip_policies', { description: 'kept' })).body;
    const key = (await callEmulator(first, 'POST', '/api_keys', {})).body;
    await first.close();
    expect(await readdir(dir)).toEqual(['state.json']);
    expect(await readFile(file, 'utf8')).not.toContain(key.token);
    // A torn temp file from a crash is ignored: only the renamed file counts.
    await writeFile(`${file}.999.tmp`, '{"format":');
    {
      await using second = await startAccount({ dataFile: file, token: 'persist' });
      expect((await callEmulator(second, 'GET', `/ip_policies/${policy.id}`)).body.description).toBe('kept');
      expect((await callEmulator(second, 'GET', '/api_keys', undefined, { token: key.token })).status).toBe(
        200,
      );
      const next = (await callEmulator(second, 'POST', '/ip_policies', {})).body.id;
      expect(next > policy.id).toBe(true);
    }
    await writeFile(file, 'not json');
    await expect(startAccount({ dataFile: file })).rejects.toThrow(/not an emulator state file/);
  });
});

describe('the bootstrap key', () => {
  it('stays one key across restarts of a saved account, re-keyed to the token given', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-emu-'));
    const file = join(dir, 'state.json');
    const bootstrapKeys = async (emulator: TestAccount): Promise<string[]> => {
      const keys: Array<{ id: string; description: string }> = (
        await callEmulator(emulator, 'GET', '/api_keys')
      ).body.keys;
      return keys.filter((k) => k.description === 'bootstrap key').map((k) => k.id);
    };
    const first = await startAccount({ dataFile: file, token: 'one' });
    const ids = await bootstrapKeys(first);
    await first.close();
    for (const token of ['one', 'two', undefined]) {
      await using next = await startAccount({ dataFile: file, ...(token === undefined ? {} : { token }) });
      expect(await bootstrapKeys(next)).toEqual(ids);
      const old = token === 'two' ? 'one' : undefined;
      if (old !== undefined) {
        const refused = await callEmulator(next, 'GET', '/api_keys', undefined, { token: old });
        expect(refused.status).toBe(401);
      }
    }
    expect(ids).toHaveLength(1);
  });
});

describe('acctsync serve', () => {
  // How fast it is ready is measured by the bench (`npm run bench -- --only startup`).
  it('lists the bootstrap key with token null as soon as it says where it listens', async () => {
    const serve = await startServe(['--token', 't'], process.cwd());
    try {
      const res = await fetch(`${serve.url}/api_keys`, {
        headers: { Authorization: 'Bearer t', 'Svc-Version': '2' },
      });
      const body = (await res.json()) as { keys: Array<{ token: unknown }> };
      expect(res.status).toBe(200);
      expect(body.keys).toHaveLength(1);
      expect(body.keys[0]?.token).toBeNull();
    } finally {
      expect(await serve.stop('SIGTERM')).toBe(0);
    }
  });
});
