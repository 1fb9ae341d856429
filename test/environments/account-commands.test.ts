/**
 * The account commands (unlock, forget, export, events, sessions) act on the account the user
 * names: an environment's (`--env`, the config path), else SVC_API_URL's, and with none configured
 * they refuse instead of quietly asking the embedded emulator. A command a message suggests works
 * as printed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScopeLease } from '../../src/lease/lease.js';
import { findLease } from '../../src/lease/store.js';
import type { TestAccount } from '../support/account.js';
import { runCli } from '../support/cli.js';
import { useTwoAccounts } from './support/two-accounts.js';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI in `cwd` with only `env` (and PATH): no variable of this process leaks in. */
async function acctsync(args: readonly string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const run = await runCli(args, { cwd, env: { HOME: cwd, ...env }, isolated: true });
  return { status: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe('with no account configured', () => {
  const commands: ReadonlyArray<readonly string[]> = [
    ['unlock', 'web'],
    ['forget', 'ip_policies/office'],
    ['export', '--out', 'account/'],
    ['events'],
    ['sessions', 'list'],
  ];

  it('each account command exits 1 naming the variables to set, and writes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-no-account-'));
    try {
      writeFileSync(join(dir, 'acctsync.yaml'), 'version: 1\nscope: web\n');
      for (const args of commands) {
        const run = await acctsync(args, dir, {});
        expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(1);
        expect(run.stderr).toContain(
          `error: ${args[0]}: no account configured: neither SVC_API_URL nor SVC_API_KEY has a value`,
        );
        expect(run.stderr).toContain('pass --api-url embedded');
        expect(run.stdout).toBe('');
        expect(existsSync(join(dir, '.acctsync')), args.join(' ')).toBe(false);
        expect(existsSync(join(dir, 'account')), args.join(' ')).toBe(false);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('--api-url embedded names the local emulator on purpose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acctsync-embedded-'));
    try {
      const run = await acctsync(['export', '--api-url', 'embedded'], dir, {});
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('version: 1');
      const unlock = await acctsync(['unlock', 'web', '--api-url', 'embedded'], dir, {});
      expect(unlock.status, unlock.stderr).toBe(0);
      expect(unlock.stdout).toBe('scope web is not held: nothing to unlock\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('in a repository of environments', () => {
  let dir: string;
  let production: TestAccount;
  let staging: TestAccount;
  let env: Record<string, string>;
  useTwoAccounts('acctsync-account-commands-', (accounts) => {
    ({ dir, production, staging, env } = accounts);
  });

  it('a held scope suggests the unlock that reaches the same account, and that command works as printed', async () => {
    const lease = await ScopeLease.acquire(production.client, 'web', {
      command: 'acctsync sync',
      ttlMs: 60_000,
      timeoutMs: 0,
    });
    try {
      const refused = await acctsync(['sync', 'config', '--env', 'production'], dir, env);
      expect(refused.status, refused.stderr).toBe(1);
      const suggested = /break it with: (acctsync unlock .*)$/m.exec(refused.stderr)?.[1];
      expect(suggested).toBe('acctsync unlock web config --env production --force');

      const unlocked = await acctsync(suggested!.split(' ').slice(1), dir, env);
      expect(unlocked.status, unlocked.stderr).toBe(0);
      expect(unlocked.stdout).toBe('unlocked scope web\n');
      expect(await findLease(production.client, 'web')).toBeUndefined();
    } finally {
      await lease.release().catch(() => undefined);
    }
  }, 120_000);

  it('--lock-timeout says once whom it waits for and until when', async () => {
    const lease = await ScopeLease.acquire(production.client, 'web', {
      command: 'acctsync watch',
      ttlMs: 60_000,
      timeoutMs: 0,
    });
    try {
      const run = await acctsync(['sync', 'config', '--env', 'production', '--lock-timeout', '2s'], dir, env);
      expect(run.status, run.stderr).toBe(1);
      const waiting = run.stderr.split('\n').filter((l) => l.includes('waiting for it until'));
      expect(waiting).toHaveLength(1);
      expect(waiting[0]).toMatch(
        new RegExp(
          `^acctsync: scope web is held by 'acctsync watch' .*pid ${process.pid}.*; waiting for it until \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ \\(--lock-timeout, the service's time\\)$`,
        ),
      );
    } finally {
      await lease.release();
    }
  }, 120_000);

  it('forget, export, events and sessions take the config path and --env, and act on that account only', async () => {
    const synced = await acctsync(['sync', 'config', '--env', 'production'], dir, env);
    expect(synced.status, synced.stderr).toBe(0);
    // Drop the production-only blocklist from the config, then forget it in production.
    const overlay = join(dir, 'config/production/network.yaml');
    writeFileSync(
      overlay,
      readFileSync(overlay, 'utf8').replace(/\nip_policies:\n {2}blocklist:[\s\S]*$/, '\n'),
    );
    const forgot = await acctsync(
      ['forget', 'config', 'ip_policies/blocklist', '--env', 'production'],
      dir,
      env,
    );
    expect(forgot.status, forgot.stderr).toBe(0);
    expect(forgot.stdout).toMatch(/^forgot ip_policies\/blocklist \(ipp_\w+\): no longer managed/);
    const plan = await acctsync(['plan', 'config', '--env', 'production', '--detailed-exitcode'], dir, env);
    expect(plan.status, plan.stdout).toBe(0);

    // Production's account: its bootstrap key and the policy forgotten there are not this scope's.
    const exported = await acctsync(['export', 'config', '--out', 'production.yaml'], dir, {
      ...env,
      ACCTSYNC_ENV: 'production',
    });
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toContain('acctsync: wrote the overlay of production to production.yaml');
    expect(exported.stderr).toContain('acctsync: left out 2 objects this scope does not manage');

    const events = await acctsync(['events', 'config', '--env', 'staging'], dir, env);
    expect(events.status, events.stderr).toBe(0);
    expect(events.stdout).toBe('no event deliveries recorded\n');
    const sessions = await acctsync(
      ['sessions', 'list', 'config', '--env', 'staging', '--output', 'json'],
      dir,
      env,
    );
    expect(sessions.status, sessions.stderr).toBe(0);
    expect(JSON.parse(sessions.stdout)).toEqual({ tunnel_sessions: [] });
    // Staging was never synced: nothing of production reached it.
    const stagingPolicies = await staging.client.get<{ ip_policies: unknown[] }>('/ip_policies');
    expect(stagingPolicies.body.ip_policies).toEqual([]);
  }, 180_000);

  it('an environment the config does not declare is named, with the ones it does', async () => {
    const run = await acctsync(['unlock', 'web', 'config', '--env', 'prod'], dir, env);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('error: no environment named prod in config/acctsync.yaml');
    expect(run.stderr).toContain('The environments are staging, production.');
  }, 60_000);
});
