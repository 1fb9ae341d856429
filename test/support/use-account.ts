/**
 * `useAccount()`: a fresh account for each test (or one for the whole file), started and closed by
 * vitest's hooks, for suites whose every test needs one.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startAccount, type AccountOptions, type TestAccount } from './account.js';

/**
 * Registers the hooks and returns the account of the running test. Its members are read inside
 * tests and hooks only: the account does not exist while the file's tests are being collected.
 */
export function useAccount(options: AccountOptions = {}, lifetime: 'test' | 'file' = 'test'): TestAccount {
  let current: TestAccount | undefined;
  const [before, after] = lifetime === 'test' ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    current = await startAccount(options);
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  const account = (): TestAccount => {
    if (current === undefined) throw new Error('useAccount: read outside a test or hook');
    return current;
  };
  // Each member is read from the running test's account when used, so that a handle made while the
  // file is collected reaches the account its hook started; it holds no members of its own.
  return new Proxy({} as TestAccount, { get: (_target, member): unknown => Reflect.get(account(), member) });
}
