/**
 * `acctsync watch --env NAME` (or ACCTSYNC_ENV) on examples/environments: the daemon reconciles the
 * named environment into its own account, reached through that environment's variables, and leaves
 * the other account alone.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { TestAccount } from '../support/account.js';
import { cliPath } from '../support/cli.js';
import { useTwoAccounts } from '../environments/support/two-accounts.js';
import { waitFor, type LogEntry } from './daemon-harness.js';

let dir: string;
let staging: TestAccount;
let production: TestAccount;
let apiVariables: Record<string, string>;
useTwoAccounts('acctsync-watch-env-', (accounts) => {
  ({ dir, staging, production, env: apiVariables } = accounts);
});

/** The daemon with both accounts in its variables, as a deployment of one environment would not be. */
function watch(args: string[], extraEnv: Record<string, string> = {}) {
  const { SVC_API_URL: _u, SVC_API_KEY: _k, ACCTSYNC_ENV: _e, ...base } = process.env;
  const child = spawn(process.execPath, [cliPath, 'watch', 'config', '--listen', '127.0.0.1:0', ...args], {
    cwd: dir,
    env: {
      ...base,
      ...apiVariables,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: LogEntry[] = [];
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (line) => logs.push(JSON.parse(line) as LogEntry));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  return { child, logs, exited, stderr: () => stderr };
}

async function policyCount(emulator: TestAccount): Promise<number> {
  const res = await fetch(`${emulator.url}/ip_policies`, {
    headers: { Authorization: `Bearer ${emulator.token}` },
  });
  return ((await res.json()) as { ip_policies: unknown[] }).ip_policies.length;
}

describe('acctsync watch --env', { timeout: 60_000 }, () => {
  it.each([
    { how: '--env staging', args: ['--env', 'staging'], env: {}, name: 'staging', counts: [1, 0] },
    {
      how: 'ACCTSYNC_ENV=production',
      args: [],
      env: { ACCTSYNC_ENV: 'production' },
      name: 'production',
      counts: [0, 3],
    },
  ])(
    'with $how reconciles that environment into its own account only',
    async ({ args, env, name, counts }) => {
      const daemon = watch(args, env);
      try {
        const reconciled = await waitFor(
          `the first reconcile (stderr: ${daemon.stderr()})`,
          () => daemon.logs.find((e) => e.status !== undefined && e.trigger !== undefined),
          30_000,
        );
        expect(reconciled.status).toBe('success');
        expect(daemon.logs.find((e) => e.msg === 'acctsync watch started')).toMatchObject({
          environment: name,
        });
        expect([await policyCount(staging), await policyCount(production)]).toEqual(counts);
      } finally {
        daemon.child.kill('SIGTERM');
      }
      expect(await daemon.exited).toBe(0);
    },
  );

  it('refuses to start without an environment when the config declares them, listing them', async () => {
    const daemon = watch([]);
    expect(await daemon.exited).toBe(1);
    expect(daemon.stderr()).toMatch(/staging/);
    expect(daemon.stderr()).toMatch(/production/);
    expect(daemon.stderr()).not.toMatch(/at .*\.js:\d+/);
    expect([await policyCount(staging), await policyCount(production)]).toEqual([0, 0]);
  });

  it('names its environment on /status, in every metric and in every notification', async () => {
    const bodies: Array<{ event: string; text: string; environment?: string }> = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(body) as (typeof bodies)[number]);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const daemon = watch(['--env', 'production', '--notify', hook]);
    try {
      await waitFor(
        `the first reconcile (stderr: ${daemon.stderr()})`,
        () => daemon.logs.find((e) => e.status === 'success'),
        30_000,
      );
      const url = daemon.logs.find((e) => typeof e.url === 'string')?.url as string;
      const status = (await (await fetch(`${url}/status`)).json()) as { environment: unknown };
      expect(status.environment).toBe('production');
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const series = metrics.split('\n').filter((l) => l.startsWith('acctsync_'));
      expect(series.length).toBeGreaterThan(10);
      expect(series.filter((l) => !l.includes('environment="production"'))).toEqual([]);

      appendFileSync(join(dir, 'config/production/network.yaml'), 'ip_policies: [not, a, map]\n');
      const invalid = await waitFor(
        'a config_invalid notification',
        () => bodies.find((b) => b.event === 'config_invalid'),
        30_000,
      );
      expect(invalid.environment).toBe('production');
      expect(invalid.text).toMatch(/^acctsync \(production\): the config is invalid: /);
    } finally {
      daemon.child.kill('SIGTERM');
      receiver.close();
    }
    expect(await daemon.exited).toBe(0);
  });
});
