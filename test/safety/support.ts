/**
 * The safety tests meet acctsync as an operator does: the built CLI in a child process, a config
 * directory in a temp dir, an emulator over real HTTP in this process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ApiClient } from '../../src/api/index.js';
import { startEmulator, type FaultOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../reliability/support/cli.js';

export interface Account {
  readonly emulator: RunningEmulator;
  /** A client of the emulator for looking at the account (no retry waits). */
  readonly client: ApiClient;
  readonly dir: string;
  /** Write requests (anything but GET) the emulator has answered so far. */
  writes(): number;
  /** Writes a file of the config directory (relative to `dir`). */
  write(file: string, text: string): Promise<void>;
  /** Runs the CLI in `dir` against the emulator. */
  acctsync(args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
  close(): Promise<void>;
}

export async function startAccount(options: { faults?: FaultOptions } = {}): Promise<Account> {
  const emulator = await startEmulator({
    host: '127.0.0.1',
    port: 0,
    token: 'safety-token',
    ...(options.faults ? { faults: options.faults } : {}),
  });
  const client = new ApiClient({ baseUrl: emulator.url, apiKey: emulator.token, retry: { attempts: 1 } });
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-safety-'));
  return {
    emulator,
    client,
    dir,
    writes: () =>
      emulator
        .stats()
        .routes.filter((r) => r.method !== 'GET' && !r.route.startsWith('/_emulator'))
        .reduce((n, r) => n + r.count, 0),
    async write(file, text) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    acctsync: (args, env = {}) =>
      runCli(args, {
        cwd: dir,
        env: { SVC_API_URL: emulator.url, SVC_API_KEY: emulator.token, ...env },
      }),
    async close() {
      await client.close();
      await emulator.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
