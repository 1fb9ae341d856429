/**
 * One writer per scope, as users meet it: two syncs racing on a fresh account, a sync beside a
 * running watch, a second watch as a standby that takes over when the first is killed, and
 * `unlock`. The built CLI in child processes, the emulator over real HTTP in this process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { findLease } from '../../src/lease/store.js';
import { ScopeLease } from '../../src/lease/lease.js';
import { readLiveState } from '../../src/live/index.js';
import { managedDescriptors } from '../../src/resources/index.js';
import { childEnv, cliPath, examplesDir, runCli } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { ManualClock } from '../support/manual-clock.js';
import { policyFile, waitFor } from '../watch/daemon-harness.js';

const rounds = 6;
const heldBy = (command: string, pid?: number) =>
  new RegExp(
    `scope (\\S+) is held by '${command}' on ${hostname().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(pid ${pid ?? '\\d+'}\\) since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ`,
  );

/** Marker keys held by more than one live object, and objects with the same natural key. */
async function duplicates(account: TestAccount): Promise<string[]> {
  const live = await readLiveState(
    account.client,
    managedDescriptors().map((d) => d.kind),
  );
  const seen = new Map<string, number>();
  for (const o of live.objects) {
    if (o.marker === undefined) continue;
    const key = `${o.marker.scope} ${o.marker.key}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([key]) => key);
}

interface Watch {
  readonly child: ChildProcess;
  readonly url: string;
  readyz(): Promise<{ status: number; body: Record<string, unknown> }>;
  metric(name: string): Promise<number | undefined>;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function configDir(text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-lease-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'account.yaml'), text);
  return dir;
}

async function account(): Promise<TestAccount> {
  const opened = await startAccount({ client: { retry: { attempts: 1 } } });
  cleanups.push(() => opened.close());
  return opened;
}

/** `acctsync watch DIR` on `on`'s account; resolves once it serves its endpoints. */
async function startWatch(on: TestAccount, dir: string, args: readonly string[] = []): Promise<Watch> {
  const child = spawn(
    process.execPath,
    [cliPath, 'watch', dir, '--listen', '127.0.0.1:0', '--interval', '10m', '--lock-ttl', '3s', ...args],
    { cwd: dir, env: childEnv(on.env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let url: string | undefined;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const entry = JSON.parse(line) as { url?: unknown };
      if (typeof entry.url === 'string') url = entry.url;
    } catch {
      // Not a log line.
    }
  });
  const base = await waitFor(
    'the daemon to listen',
    () => {
      if (child.exitCode !== null) throw new Error(`watch exited with ${child.exitCode}: ${stderr}`);
      return url;
    },
    30_000,
  );
  return {
    child,
    url: base,
    async readyz() {
      try {
        const res = await fetch(`${base}/readyz`);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      } catch {
        return { status: 0, body: {} };
      }
    },
    async metric(name) {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`${name} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    },
  };
}

describe('two syncs at once', () => {
  it(`on a fresh account: no duplicate, and each exits 0 or names the holder (${rounds} rounds)`, async () => {
    const cwd = await configDir('');
    for (let round = 0; round < rounds; round++) {
      const on = await account();
      const sync = () => runCli(['sync', join(examplesDir, 'account'), '--yes'], { cwd, env: on.env });
      const results = await Promise.all([sync(), sync()]);
      for (const r of results) {
        const context = `round ${round}: exit ${r.code}\n${r.stderr}`;
        if (r.code === 0) continue;
        expect(r.code, context).toBe(1);
        expect(r.stderr, context).toMatch(heldBy('acctsync sync'));
        expect(r.stderr, context).not.toMatch(/ERR_SVC_|409/);
      }
      expect(
        results.some((r) => r.code === 0),
        `round ${round}`,
      ).toBe(true);
      expect(await duplicates(on), `round ${round}`).toEqual([]);
      expect(await findLease(on.client, 'example'), `round ${round}: the lease is released`).toBeUndefined();
      await on.close();
    }
  });

  it('--lock-timeout waits for the holder instead of refusing: both succeed', async () => {
    const cwd = await configDir('');
    const on = await account();
    const sync = () =>
      runCli(['sync', join(examplesDir, 'account'), '--yes', '--lock-timeout', '2m'], { cwd, env: on.env });
    const results = await Promise.all([sync(), sync()]);
    expect(results.map((r) => r.code)).toEqual([0, 0]);
    expect(await duplicates(on)).toEqual([]);
  });
});

describe('a sync beside a running watch', () => {
  it('exits 1 without writing, naming the watch', async () => {
    const on = await account();
    const dir = await configDir(policyFile('office'));
    const watch = await startWatch(on, dir);
    await waitFor('the watch to be ready', async () => (await watch.readyz()).status === 200, 30_000);
    // A CI job's checkout of the same scope, one change ahead of the daemon's.
    const ci = await configDir(policyFile('office', 'lab'));
    const policies = await on.client.listAll('/ip_policies', 'ip_policies');
    const result = await runCli(['sync', ci, '--yes'], { cwd: ci, env: on.env });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(heldBy('acctsync watch', watch.child.pid));
    expect(result.stderr).toContain('scope watch-test is held by');
    expect(result.stdout).toBe('');
    expect(await on.client.listAll('/ip_policies', 'ip_policies')).toEqual(policies);
  });
});

describe('two watches on one scope', () => {
  it('the second is a standby and takes over when the first is killed', async () => {
    const on = await account();
    const dir = await configDir(policyFile('office'));
    const first = await startWatch(on, dir);
    await waitFor('the first watch to be ready', async () => (await first.readyz()).status === 200, 30_000);
    const second = await startWatch(on, dir);
    const standby = await waitFor(
      'the second watch to be a standby',
      async () => {
        const r = await second.readyz();
        return r.body.reason === 'standby' ? r : undefined;
      },
      30_000,
    );
    expect(standby.status).toBe(503);
    expect(standby.body.details).toEqual([expect.stringMatching(heldBy('acctsync watch', first.child.pid))]);
    expect(await second.metric('acctsync_standby')).toBe(1);
    expect(await first.metric('acctsync_standby')).toBe(0);

    first.child.kill('SIGKILL');
    await waitFor('the standby to take over', async () => (await second.readyz()).status === 200, 60_000);
    expect(await second.metric('acctsync_standby')).toBe(0);
    const lease = await findLease(on.client, 'watch-test');
    expect(lease?.record?.pid).toBe(second.child.pid);
  });

  it('watch --mode observe never takes the lease', async () => {
    const on = await account();
    const dir = await configDir(policyFile('office'));
    const observer = await startWatch(on, dir, ['--mode', 'observe']);
    await waitFor('the observer to be ready', async () => (await observer.readyz()).status === 200, 30_000);
    expect(await findLease(on.client, 'watch-test')).toBeUndefined();
    const result = await runCli(['sync', dir, '--yes'], { cwd: dir, env: on.env });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe('the other writing commands', () => {
  it('forget and apply are refused beside a holder, naming it; a bad --lock-ttl is a usage error', async () => {
    const on = await account();
    const dir = await configDir(policyFile('office'));
    const synced = await runCli(['sync', dir, '--yes'], { cwd: dir, env: on.env });
    expect(synced.code, synced.stderr).toBe(0);
    const planned = await runCli(['plan', dir, '--out', join(dir, 'plan.json')], { cwd: dir, env: on.env });
    expect(planned.code, planned.stderr).toBe(0);
    const lease = await ScopeLease.acquire(on.client, 'watch-test', {
      command: 'acctsync sync',
      ttlMs: 60_000,
      timeoutMs: 0,
    });
    const empty = await configDir('version: 1\nscope: watch-test\n');
    for (const args of [
      ['forget', empty, 'ip_policies/p0'],
      ['apply', join(dir, 'plan.json')],
    ]) {
      const result = await runCli(args, { cwd: dir, env: on.env });
      expect(result.code, `${args[0]}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toMatch(heldBy('acctsync sync', process.pid));
    }
    const bad = await runCli(['sync', dir, '--lock-ttl', '10ms'], { cwd: dir, env: on.env });
    expect(bad.stderr).toMatch(/^error: sync: --lock-ttl must be between 1s and 10m\n/);
    expect(bad.code).toBe(1);
    await lease.release();
  });
});

describe('acctsync unlock', () => {
  it('breaks a lease by hand with a warning; the holder learns it lost the lease', async () => {
    const on = await account();
    const cwd = await configDir(policyFile('office'));
    // The holder renews only when the test moves its clock: its lease outlives the commands below.
    const clock = new ManualClock();
    const lease = await ScopeLease.acquire(on.client, 'watch-test', {
      command: 'acctsync sync',
      ttlMs: 60_000,
      timeoutMs: 0,
      timers: clock.timers,
    });
    const refused = await runCli(['sync', cwd, '--yes'], { cwd, env: on.env });
    expect(refused.code).toBe(1);
    const unlocked = await runCli(['unlock', 'watch-test', '--force'], { cwd, env: on.env });
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stderr).toMatch(
      /^warning: breaking the lease on scope watch-test held by 'acctsync sync'/,
    );
    expect(unlocked.stdout).toBe('unlocked scope watch-test\n');
    // Its next renewal finds the lease object gone.
    const lost = new Promise((resolve) => lease.signal.addEventListener('abort', resolve, { once: true }));
    clock.advance(20_000);
    await lost;
    const synced = await runCli(['sync', cwd, '--yes'], { cwd, env: on.env });
    expect(synced.code, synced.stderr).toBe(0);
    const again = await runCli(['unlock', 'watch-test'], { cwd, env: on.env });
    expect(again.stdout).toBe('scope watch-test is not held: nothing to unlock\n');
    await lease.release();
  });
});
