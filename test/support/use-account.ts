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
  return {
    get emulator() {
      return account().emulator;
    },
    get url() {
      return account().url;
    },
    get token() {
      return account().token;
    },
    get client() {
      return account().client;
    },
    get requests() {
      return account().requests;
    },
    get env() {
      return account().env;
    },
    newClient: (o) => account().newClient(o),
    answered: (match) => account().answered(match),
    close: () => account().close(),
    [Symbol.asyncDispose]: () => account().close(),
  };
}
