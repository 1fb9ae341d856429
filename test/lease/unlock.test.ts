/**
 * `acctsync unlock` as an operator meets it: a lease renewed within its TTL is broken only after a
 * `yes` on a terminal or with `--force` (without a terminal and without `--force` it refuses), and
 * the holder record, which anyone with access to the account can write, is printed inert.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { recordOf } from '../../src/lease/acquire.js';
import type { Holder } from '../../src/lease/holder.js';
import { ScopeLease } from '../../src/lease/lease.js';
import { createLease, findLease } from '../../src/lease/store.js';
import { childEnv, cliPath, collect, runCli, type CliResult } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';

const settings = { command: 'acctsync watch', ttlMs: 60_000, timeoutMs: 0 };

/** `acctsync unlock ARGS` on a pseudo-terminal (`script`), typing `input`. */
function onTerminal(account: TestAccount, args: readonly string[], input: string): Promise<CliResult> {
  const command = [process.execPath, cliPath, 'unlock', ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: childEnv(account.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(input);
  return collect(child, 60_000);
}

const unlock = (account: TestAccount, args: readonly string[]): Promise<CliResult> =>
  runCli(['unlock', ...args], { cwd: process.cwd(), env: account.env });

describe('unlocking a lease renewed within its TTL', () => {
  it('refuses without a terminal and without --force, naming the holder; --force breaks it', async () => {
    await using account = await startAccount();
    const lease = await ScopeLease.acquire(account.client, 'live', settings);
    const refused = await unlock(account, ['live']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: scope live is held by 'acctsync watch' on \S+ \(pid \d+\) since \S+, renewed within its TTL \(until \S+\): not breaking it without a terminal to confirm on\n/,
    );
    expect(refused.stderr).toContain('acctsync unlock --force live');
    expect(await findLease(account.client, 'live')).toBeDefined();

    const forced = await unlock(account, ['live', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toMatch(/^warning: breaking the lease on scope live held by 'acctsync watch'/);
    expect(forced.stdout).toBe('unlocked scope live\n');
    expect(await findLease(account.client, 'live')).toBeUndefined();
    await lease.release();
  });

  it("asks on a terminal: anything but 'yes' keeps the lease, 'yes' breaks it", async () => {
    await using account = await startAccount();
    const lease = await ScopeLease.acquire(account.client, 'asked', settings);
    const kept = await onTerminal(account, ['asked'], 'no\n');
    expect(kept.code, kept.stdout).toBe(1);
    expect(kept.stdout).toContain("its holder may still be running. Only 'yes' breaks it.");
    expect(kept.stdout).toContain('unlock cancelled: scope asked is still held');
    expect(await findLease(account.client, 'asked')).toBeDefined();

    const broken = await onTerminal(account, ['asked'], 'yes\n');
    expect(broken.code, broken.stdout).toBe(0);
    expect(broken.stdout).toContain('unlocked scope asked');
    expect(await findLease(account.client, 'asked')).toBeUndefined();
    await lease.release();
  });

  it('an expired lease is broken without asking', async () => {
    await using account = await startAccount();
    const dead: Holder = { command: 'acctsync sync', host: 'ci-7', pid: 4 };
    await createLease(
      account.client,
      recordOf('dead', dead, '2026-01-01T00:00:00Z', 'n', -5000, account.client.serviceClock),
    );
    const result = await unlock(account, ['dead']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('unlocked scope dead\n');
  });
});

describe('the holder record', () => {
  it('is printed inert: escape sequences from the account are shown escaped', async () => {
    await using account = await startAccount();
    const planted: Holder = {
      command: 'acctsync sync\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
      host: 'ci\u001b[2J\u001b[1;1Hunlocked scope prod\n::error::x',
      pid: 7,
    };
    await createLease(
      account.client,
      recordOf('inert', planted, '2026-01-01T00:00:00\u001b[2JZ', 'n', 30_000, account.client.serviceClock),
    );
    const refused = await unlock(account, ['inert']);
    expect(refused.code).toBe(1);
    const forced = await unlock(account, ['inert', '--force']);
    expect(forced.code).toBe(0);
    for (const output of [refused.stderr, forced.stderr]) {
      for (const control of ['\u001b', '\u0007', '\r']) expect(output).not.toContain(control);
      expect(output).toContain('\\u001b[2J');
      expect(output).toContain('since an unreadable time');
    }
    expect(forced.stderr.split('\n').filter((l) => l.startsWith('unlocked'))).toEqual([]);
  });
});
