/**
 * One account's API budget, shared as it is in a team: a `watch` daemon, a merge's `sync` and three
 * pull-request `plan`s start at once against an emulator that answers 429 beyond its budget. Every
 * command succeeds (no failure from a 429), and together they take no more than 1.2 times the
 * budget's floor for the requests they made: each process lowers its pace on a 429 and waits the
 * service's `Retry-After`, and none sits idle while budget is left. The budget keeps the live
 * service's shape (a rolling window) over a 5 s window instead of a minute, so the test runs in
 * seconds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { childEnv, cliPath, collect, type CliResult } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { waitFor, type LogEntry } from '../watch/daemon-harness.js';

const budget = { requests: 40, windowMs: 10_000 };

/** A config of its own scope per process: they share the account, not the objects. */
function config(scope: string): string {
  return [
    'version: 1',
    `scope: ${scope}`,
    'ip_policies:',
    ...['a', 'b', 'c'].flatMap((n) => [`  ${n}:`, `    description: ${scope} ${n}`]),
  ].join('\n');
}

let account: TestAccount;
let dir: string;
beforeEach(async () => {
  account = await startAccount({
    rateLimitPerMinute: budget.requests,
    rateLimitWindowMs: budget.windowMs,
  });
  dir = await mkdtemp(join(tmpdir(), 'acctsync-budget-'));
  for (const scope of ['watched', 'merged', 'pr1', 'pr2', 'pr3']) {
    await mkdir(join(dir, scope));
    await writeFile(join(dir, scope, 'account.yaml'), `${config(scope)}\n`);
  }
});
afterEach(async () => {
  await account.close();
  await rm(dir, { recursive: true, force: true });
});

function start(args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [cliPath, ...args], {
    cwd: dir,
    env: childEnv(account.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The requests the emulator admitted (429s are refused before they count against the budget). */
const admitted = (): number => account.answered((r) => r.status !== 429 && !r.route.startsWith('/_emulator'));
const refused = (): number => account.answered((r) => r.status === 429);

describe('processes sharing one account budget', () => {
  it('all succeed, within 1.2 times the floor the budget sets for their requests', async () => {
    const before = admitted();
    const watch = start([
      'watch',
      'watched',
      '--listen',
      '127.0.0.1:0',
      '--interval',
      '10m',
      '--log-level',
      'info',
    ]);
    const logs: LogEntry[] = [];
    createInterface({ input: watch.stdout! }).on('line', (line) => {
      try {
        logs.push(JSON.parse(line) as LogEntry);
      } catch {
        logs.push({ msg: line });
      }
    });
    const watchStderr: string[] = [];
    createInterface({ input: watch.stderr! }).on('line', (line) => watchStderr.push(line));
    const ended: number[] = [];
    const finished = (child: ChildProcess): Promise<CliResult> =>
      collect(child, 120_000).then((r) => {
        ended.push(performance.now());
        return r;
      });
    const commands = [
      finished(start(['sync', 'merged', '--yes'])),
      ...['pr1', 'pr2', 'pr3'].map((pr) => finished(start(['plan', pr]))),
    ];
    try {
      // From the first request the service saw: starting Node is no part of the budget.
      const first = await waitFor(
        'the first request',
        () => admitted() > before && performance.now(),
        30_000,
      );
      const reconciled = await waitFor(
        `the watch's first reconcile (stderr: ${watchStderr.join('\n')})`,
        () => logs.find((e) => typeof e.status === 'string' && typeof e.trigger === 'string'),
        120_000,
      );
      ended.push(performance.now());
      const results = await Promise.all(commands);
      const elapsedMs = Math.max(...ended) - first;

      expect(reconciled.status, JSON.stringify(reconciled)).toBe('success');
      for (const r of results) {
        expect(r.stderr).not.toMatch(/^error/m);
        expect(r.code).toBe(0);
      }
      const made = admitted() - before;
      const floorMs = (made / budget.requests) * budget.windowMs;
      // The budget was the limit: the service refused requests beyond it.
      expect(refused()).toBeGreaterThan(0);
      expect(made).toBeGreaterThan(2 * budget.requests);
      expect(
        elapsedMs,
        `${made} requests, ${refused()} refused, in ${Math.round(elapsedMs)} ms`,
      ).toBeLessThanOrEqual(1.2 * floorMs);
    } finally {
      watch.kill('SIGTERM');
      await collect(watch, 30_000);
    }
  });
});
