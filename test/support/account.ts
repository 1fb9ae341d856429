/**
 * A test's account: an in-process emulator on 127.0.0.1 with a port of the OS's choosing, a client
 * of it, and what a spawned CLI needs to reach it. Every suite gets its emulator and client here.
 */
import type { ApiClient, ResponseEvent } from '../../src/api/index.js';
import {
  startEmulator,
  type EmulatorOptions,
  type RouteCount,
  type RunningEmulator,
} from '../../src/emulator/index.js';
import { testClient, type TestClientOptions } from './client.js';

export interface AccountOptions extends Omit<EmulatorOptions, 'host' | 'port'> {
  /** Options of {@link TestAccount.client} (retries, timeout, `baseUrl` of a proxy). */
  readonly client?: Omit<TestClientOptions, 'onResponse'>;
}

/** The API variables of a spawned CLI: the child reaches the emulator as a user's shell would. */
/**
 * The API variables of a spawned CLI, each name behind `prefix` (`STAGING_` for an environment's
 * account): the child reaches the emulator as a user's shell would.
 */
export function apiEnv(
  api: { readonly url: string; readonly token: string },
  prefix = '',
): Record<string, string> {
  return { [`${prefix}SVC_API_URL`]: api.url, [`${prefix}SVC_API_KEY`]: api.token };
}

export interface TestAccount extends AsyncDisposable {
  readonly emulator: RunningEmulator;
  /** The emulator's origin. */
  readonly url: string;
  /** The bootstrap API key's token. */
  readonly token: string;
  readonly client: ApiClient;
  /** Every response `client` received, in order (tests count requests where that is the point). */
  readonly requests: ResponseEvent[];
  /** {@link apiEnv} of this account. */
  readonly env: Record<string, string>;
  /** Another client of this account (through a proxy, other retries); closed with the account. */
  newClient(options?: TestClientOptions): ApiClient;
  /** Requests the emulator answered on the routes `match` accepts (all routes without one). */
  answered(match?: (route: RouteCount) => boolean): number;
  /** Closes the clients, then the emulator. */
  close(): Promise<void>;
}

export async function startAccount(options: AccountOptions = {}): Promise<TestAccount> {
  const { client: clientOptions = {}, ...emulatorOptions } = options;
  const emulator = await startEmulator({ ...emulatorOptions, host: '127.0.0.1', port: 0 });
  const clients: ApiClient[] = [];
  const newClient = (o: TestClientOptions = {}): ApiClient => {
    const created = testClient(emulator, o);
    clients.push(created);
    return created;
  };
  const requests: ResponseEvent[] = [];
  const client = newClient({ ...clientOptions, onResponse: (e) => requests.push(e) });
  // Once only: a test may close its account early and the hook that owns it closes it again.
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closed ??= Promise.all(clients.map((c) => c.close())).then(() => emulator.close()));
  return {
    emulator,
    url: emulator.url,
    token: emulator.token,
    client,
    requests,
    env: apiEnv(emulator),
    newClient,
    answered: (match = () => true) =>
      emulator
        .stats()
        .routes.filter(match)
        .reduce((n, r) => n + r.count, 0),
    close,
    [Symbol.asyncDispose]: close,
  };
}
