/**
 * Runs the built CLI's `watch` against an in-process emulator over real HTTP, with the config in a
 * temp directory, and reads its JSON log lines back. Conditions are polled with deadlines, never
 * waited for with fixed sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ApiClient } from '../../src/api/index.js';
import type { TestContext } from 'vitest';
import type { FaultOptions, RunningEmulator } from '../../src/emulator/index.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { parseExposition, type Exposition } from './prometheus.js';

const mainJs = new URL('../../dist/cli/main.js', import.meta.url).pathname;

export type LogEntry = Record<string, unknown> & { readonly msg?: string };

/** Polls `probe` until it returns something other than undefined/false, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export interface WatchedDaemon {
  readonly emulator: RunningEmulator;
  /** A client of the emulator for the test itself (making drift, reading state). */
  readonly api: ApiClient;
  readonly configDir: string;
  /** The daemon's /healthz, /readyz, /metrics base URL. */
  readonly url: string;
  readonly logs: LogEntry[];
  readonly child: ChildProcess;
  writeConfig(name: string, text: string): Promise<void>;
  /** Live IP policies by description. */
  policies(): Promise<{ id: string; description: string }[]>;
  /** Status 0 when the request failed at the connection level. */
  readyz(): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Requests the emulator answered for `method` on routes starting with `route`. */
  requests(method: string, route?: string): number;
  /** Finished reconciles, as logged. */
  reconciles(): LogEntry[];
  /** The daemon's /status document. */
  status(): Promise<Record<string, unknown>>;
  /** The daemon's /metrics, parsed. */
  metrics(): Promise<Exposition>;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  close(): Promise<void>;
}

export const policyFile = (...descriptions: string[]): string =>
  [
    'version: 1',
    'scope: watch-test',
    'ip_policies:',
    ...descriptions.flatMap((d, i) => [`  p${i}:`, `    description: ${d}`]),
  ].join('\n') + '\n';

export interface WatchOptions {
  readonly files: Readonly<Record<string, string>>;
  readonly interval?: string;
  readonly faults?: FaultOptions;
  readonly args?: readonly string[];
  /** Variables for the daemon besides the API key (`{env: NAME}` values of the config). */
  readonly env?: Readonly<Record<string, string>>;
  /** Runs on the account before the daemon starts (what someone left in it). */
  readonly before?: (account: TestAccount) => Promise<void>;
}

/** A daemon for this test (closed when the test finishes), once its first reconcile succeeded. */
export async function startReady(context: TestContext, options: WatchOptions): Promise<WatchedDaemon> {
  const d = await startWatch(options);
  context.onTestFinished(() => d.close());
  await waitFor('the first reconcile to succeed', async () => (await d.readyz()).status === 200, 30_000);
  return d;
}

export async function startWatch(options: WatchOptions): Promise<WatchedDaemon> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-watch-'));
  const configDir = join(dir, 'config');
  await mkdir(configDir);
  const writeConfig = (name: string, text: string): Promise<void> => writeFile(join(configDir, name), text);
  for (const [name, text] of Object.entries(options.files)) await writeConfig(name, text);
  const account = await startAccount(options.faults ? { faults: options.faults } : {});
  const { emulator, client: api } = account;
  await options.before?.(account);

  const child = spawn(
    process.execPath,
    [
      mainJs,
      'watch',
      configDir,
      '--api-url',
      emulator.url,
      '--listen',
      '127.0.0.1:0',
      '--interval',
      options.interval ?? '10m',
      '--debounce',
      '100ms',
      '--log-level',
      'debug',
      ...(options.args ?? []),
    ],
    {
      cwd: dir,
      env: { ...process.env, ...options.env, SVC_API_KEY: emulator.token },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const logs: LogEntry[] = [];
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogEntry);
    } catch {
      logs.push({ msg: `(not JSON) ${line}` });
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => stderr.push(line));
  // 'close', not 'exit': it comes after stdout is drained, so every log line has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    await account.close();
    await rm(dir, { recursive: true, force: true });
  };
  let url: string;
  try {
    url = await waitFor(
      `the daemon to listen (stderr: ${stderr.join('\n')})`,
      () => {
        if (child.exitCode !== null)
          throw new Error(`watch exited with ${child.exitCode}: ${stderr.join('\n')}`);
        const entry = logs.find((e) => typeof e.url === 'string');
        return entry?.url as string | undefined;
      },
      20_000,
    );
  } catch (err) {
    await close();
    throw err;
  }

  return {
    emulator,
    api,
    configDir,
    url,
    logs,
    child,
    exited,
    writeConfig,
    async policies() {
      const out: { id: string; description: string }[] = [];
      for await (const p of api.list<{ id: string; description: string }>('/ip_policies', 'ip_policies'))
        out.push(p);
      return out;
    },
    async readyz() {
      try {
        const res = await fetch(`${url}/readyz`);
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      } catch {
        // A keep-alive connection the server closed while the test reused it: the next poll retries.
        return { status: 0, body: {} };
      }
    },
    requests: (method, route = '/') =>
      account.answered((r) => r.method === method && r.route.startsWith(route)),
    reconciles: () =>
      logs.filter(
        (e) => typeof e.status === 'string' && typeof e.trigger === 'string' && e.durationMs !== undefined,
      ),
    status: async () => (await (await fetch(`${url}/status`)).json()) as Record<string, unknown>,
    metrics: async () => parseExposition(await (await fetch(`${url}/metrics`)).text()),
    close,
  };
}
