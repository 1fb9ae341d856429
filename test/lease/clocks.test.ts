/**
 * The lease against people and clocks, through the built CLI and the daemon against the emulator
 * over HTTP. The service's time is the emulator's clock (`now`), which these tests set apart from
 * this machine's or move: no test waits for a TTL.
 *
 * - a forged lease (expiring further out than any holder writes) is taken over, with a warning,
 *   and the daemon notifies it;
 * - a writer whose clock runs 2 minutes ahead of the service (and of the holder) leaves a live
 *   lease alone;
 * - a holder that lost its lease while applying sends no further write and exits 1.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Holder } from '../../src/lease/holder.js';
import { ScopeLease } from '../../src/lease/lease.js';
import { createLease, findLease } from '../../src/lease/store.js';
import type { RouteCount } from '../../src/emulator/index.js';
import { childEnv, cliPath, collect, examplesDir, runCli } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { policyFile, startWatch, waitFor } from '../watch/daemon-harness.js';

const config = join(examplesDir, 'account');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function workDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-clocks-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes the emulator answered, but for the lease's SSH credential. */
const isWrite = (r: RouteCount): boolean =>
  r.method !== 'GET' && !r.route.startsWith('/_emulator') && !r.route.startsWith('/ssh_credentials');

/** A record claiming `scope` until year 9999: nothing acctsync writes, anyone with access can. */
async function forgeLease(account: TestAccount, scope: string): Promise<void> {
  await createLease(account.client, {
    scope,
    command: 'acctsync sync',
    host: 'intruder',
    pid: 1,
    since: '2026-01-01T00:00:00Z',
    expiresAt: '9999-12-31T00:00:00.000Z',
    nonce: 'forged',
  });
}

describe('a forged lease', () => {
  it('is taken over by sync, with a warning naming it; the sync applies and exits 0', async () => {
    await using account = await startAccount();
    await forgeLease(account, 'example');
    const result = await runCli(['sync', config, '--yes'], { cwd: await workDir(), env: account.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^warning: took over the lease on scope example: its record \('acctsync sync' on intruder \(pid 1\) since 2026-01-01T00:00:00Z\) claimed it until 9999-12-31T00:00:00Z, further out than any holder writes \(10 minutes\); someone with access to the account wrote it$/m,
    );
    expect(account.answered(isWrite)).toBeGreaterThan(0);
    expect(await findLease(account.client, 'example')).toBeUndefined();
  });

  it('is taken over by watch, which logs it, notifies lease_forged and reconciles', async () => {
    const received: Record<string, unknown>[] = [];
    const hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        res.end();
      });
    });
    hook.listen(0, '127.0.0.1');
    await once(hook, 'listening');
    cleanups.push(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const notify = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const daemon = await startWatch({
      files: { 'a.yaml': policyFile('office') },
      args: ['--notify', notify],
      before: (account) => forgeLease(account, 'watch-test'),
    });
    cleanups.push(() => daemon.close());
    await waitFor('the daemon to reconcile', async () => (await daemon.readyz()).status === 200, 30_000);
    expect((await daemon.policies()).map((p) => p.description)).toEqual(['office']);
    const warning = await waitFor('the warning', () =>
      daemon.logs.find((e) => e.level === 'warn' && e.lease === 'forged'),
    );
    expect(warning?.msg).toMatch(
      /^took over the lease on scope watch-test: its record \('acctsync sync' on intruder/,
    );
    const notification = await waitFor('the notification', () =>
      received.find((n) => n.event === 'lease_forged'),
    );
    expect(notification.text).toMatch(
      /^acctsync: took over the lease on scope watch-test: .*someone with access/,
    );
  });
});

describe('a writer whose clock runs 2 minutes ahead of the service', () => {
  it('does not take over a live lease: it exits 1 naming the holder, writing nothing', async () => {
    await using account = await startAccount({ now: () => new Date(Date.now() - 120_000) });
    // A holder on another machine, whose clock agrees with the service's, renewed it just now.
    const serviceNow = Date.now() - 120_000;
    await createLease(account.client, {
      scope: 'example',
      command: 'acctsync watch',
      host: 'ops-2',
      pid: 77,
      since: new Date(serviceNow - 3_600_000).toISOString(),
      expiresAt: new Date(serviceNow + 60_000).toISOString(),
      nonce: 'live',
    });
    const result = await runCli(['sync', config, '--yes'], { cwd: await workDir(), env: account.env });
    expect(result.code, result.stdout).toBe(1);
    expect(result.stderr).toMatch(/^error: scope example is held by 'acctsync watch' on ops-2 \(pid 77\)/);
    expect(account.answered(isWrite)).toBe(0);
    expect((await findLease(account.client, 'example'))?.record?.nonce).toBe('live');
  });
});

describe('a holder that lost its lease while applying', () => {
  it('sends no write after another writer took the scope over, and exits 1', async () => {
    let offset = 0;
    await using account = await startAccount({
      now: () => new Date(Date.now() + offset),
      // Every answer takes a while: the sync is still applying when its lease runs out.
      faults: { latencyMs: 300 },
      client: { retry: { attempts: 1 } },
    });
    const child = spawn(process.execPath, [cliPath, 'sync', config, '--yes'], {
      cwd: await workDir(),
      env: childEnv(account.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = collect(child, 120_000);
    await waitFor('the sync to write', () => account.answered(isWrite) > 0, 60_000);
    // The service's time runs 10 minutes on, well past the sync's TTL (60 s), as if it had stalled.
    offset = 10 * 60_000;
    const other: Holder = { command: 'acctsync sync', host: 'ci-2', pid: 2 };
    const taken = await ScopeLease.tryAcquire(account.client, 'example', { ...other, ttlMs: 60_000 }, other);
    expect(taken).toBeInstanceOf(ScopeLease);
    const writesAtTakeover = account.answered(isWrite);
    const result = await done;
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/lost the lease on scope example: it was not renewed in time/);
    expect(account.answered(isWrite)).toBe(writesAtTakeover);
    expect((await findLease(account.client, 'example'))?.record?.host).toBe('ci-2');
    if (taken instanceof ScopeLease) await taken.release();
  });
});
