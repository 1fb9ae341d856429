/**
 * examples/environments in a temp directory (as `config/`) and one emulator per environment's
 * account, fresh for each test: the set-up of every suite that runs the CLI on two accounts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../../src/emulator/index.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const cliMain = join(repoRoot, 'dist/cli/main.js');

export interface TwoAccounts {
  readonly dir: string;
  readonly staging: RunningEmulator;
  readonly production: RunningEmulator;
}

/** Registers the hooks; `use` receives each test's directory and emulators before the test runs. */
export function useTwoAccounts(prefix: string, use: (accounts: TwoAccounts) => void): void {
  let current: TwoAccounts | undefined;
  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cpSync(join(repoRoot, 'examples/environments'), join(dir, 'config'), { recursive: true });
    current = { dir, staging: await startEmulator(), production: await startEmulator() };
    use(current);
  });
  afterEach(async () => {
    if (current === undefined) return;
    await current.staging.close();
    await current.production.close();
    rmSync(current.dir, { recursive: true, force: true });
  });
}
