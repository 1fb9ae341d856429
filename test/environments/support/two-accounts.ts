/**
 * examples/environments in a temp directory (as `config/`) and one emulator per environment's
 * account, fresh for each test: the set-up of every suite that runs the CLI on two accounts.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach } from 'vitest';
import { apiEnv, startAccount, type TestAccount } from '../../support/account.js';

export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface TwoAccounts {
  readonly dir: string;
  readonly staging: TestAccount;
  readonly production: TestAccount;
  /** Both accounts' API variables, as the examples' environments name them (`STAGING_SVC_API_URL`...). */
  readonly env: Record<string, string>;
}

/** Registers the hooks; `use` receives each test's directory and emulators before the test runs. */
export function useTwoAccounts(prefix: string, use: (accounts: TwoAccounts) => void): void {
  let current: TwoAccounts | undefined;
  beforeEach(async () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    cpSync(join(repoRoot, 'examples/environments'), join(dir, 'config'), { recursive: true });
    const [staging, production] = await Promise.all([startAccount(), startAccount()]);
    const env = { ...apiEnv(staging, 'STAGING_'), ...apiEnv(production, 'PRODUCTION_') };
    current = { dir, staging, production, env };
    use(current);
  });
  afterEach(async () => {
    if (current === undefined) return;
    await current.staging.close();
    await current.production.close();
    rmSync(current.dir, { recursive: true, force: true });
  });
}
