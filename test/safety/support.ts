/**
 * The safety tests meet acctsync as an operator does: the built CLI in a child process, a config
 * directory in a temp dir, an emulator over real HTTP in this process.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FaultOptions } from '../../src/emulator/index.js';
import { runCli, type CliResult } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';

/** An account whose client never retries (no waits), with a config directory for the CLI. */
export interface CliAccount extends TestAccount {
  readonly dir: string;
  /**
   * Write requests (anything but GET) the emulator has answered so far, but for the scope's lease a
   * writing command takes and hands back, an SSH credential (docs/lease.md): the tests using this
   * write no SSH credential of their own.
   */
  writes(): number;
  /** Writes a file of the config directory (relative to `dir`). */
  write(file: string, text: string): Promise<void>;
  /** Runs the CLI in `dir` against the emulator. */
  acctsync(args: readonly string[], env?: Record<string, string>): Promise<CliResult>;
}

export async function startCliAccount(options: { faults?: FaultOptions } = {}): Promise<CliAccount> {
  const account = await startAccount({ ...options, client: { retry: { attempts: 1 } } });
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-safety-'));
  // A checkout: the config's root is the work tree, so `{file: ../x}` from account/ may read x.
  await mkdir(join(dir, '.git'));
  const close = async (): Promise<void> => {
    await account.close();
    await rm(dir, { recursive: true, force: true });
  };
  return {
    ...account,
    dir,
    writes: () =>
      account.answered(
        (r) =>
          r.method !== 'GET' && !r.route.startsWith('/_emulator') && !r.route.startsWith('/ssh_credentials'),
      ),
    async write(file, text) {
      await mkdir(dirname(join(dir, file)), { recursive: true });
      await writeFile(join(dir, file), text);
    },
    acctsync: (args, env = {}) => runCli(args, { cwd: dir, env: { ...account.env, ...env } }),
    close,
    [Symbol.asyncDispose]: close,
  };
}
