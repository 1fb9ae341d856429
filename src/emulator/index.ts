/**
 * The Account Management API emulator, in process: `startEmulator` serves the whole API of
 * `account-api.md` and `gaps.md` on a local port, plus a control surface under `/_emulator/`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { descriptors, withDefaults } from '../resources/index.js';
import { Account } from './account.js';
import { hashToken } from './token-auth.js';
import { CertificateJobs } from './certificate-jobs.js';
import { controlRoutes } from './control.js';
import { decoratorInputs, decorators } from './decorators.js';
import { faultDice, type FaultOptions } from './faults.js';
import { IdGenerator } from './ids.js';
import { loadSnapshot, restore, SaveQueue, snapshot } from './persistence.js';
import { newToken } from './platform.js';
import { RateLimiter } from './rate-limit.js';
import { Router } from './router.js';
import { apiRoutes } from './routes.js';
import { requestListener } from './server.js';
import { EmulatorCa } from './x509.js';
import { RequestStats, type EmulatorStats } from './stats.js';

export type { FaultOptions } from './faults.js';
export type { EmulatorStats, RouteCount } from './stats.js';

export interface EmulatorOptions {
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default 0: a free port chosen by the OS. */
  readonly port?: number;
  /** The bootstrap API key's token; generated when absent. */
  readonly token?: string;
  /** Keep the state in this file (loaded at start, saved atomically after changes). */
  readonly dataFile?: string;
  /** Told of each save of `dataFile` that failed after the start (the account stays in memory). */
  readonly onSaveError?: (err: Error) => void;
  /** Refuse API requests beyond this many per rolling minute with 429. */
  readonly rateLimitPerMinute?: number;
  readonly faults?: FaultOptions;
  /**
   * How long a certificate provisioning job takes before the certificate is issued
   * (default {@link DEFAULT_CERT_DELAY_MS}).
   */
  readonly certDelayMs?: number;
  /** The clock of `created_at` and ids; tests pin it. */
  readonly now?: () => Date;
}

export interface RunningEmulator {
  /** Origin, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  /** The bootstrap API key's token. */
  readonly token: string;
  /** The admin user owning the bootstrap key. */
  readonly adminUserId: string;
  setFaults(faults: FaultOptions): void;
  /** Requests answered so far, by method, route pattern and status. */
  stats(): EmulatorStats;
  resetStats(): void;
  /** Stops listening, drops open connections and writes the state file. */
  close(): Promise<void>;
}

/** A managed certificate is issued this long after its job starts, unless told otherwise. */
export const DEFAULT_CERT_DELAY_MS = 2_000;

function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** The API's routes, then the control surface's. */
function routerOf(control: Iterable<Parameters<Router['add']>[0]>): Router {
  const router = new Router();
  for (const route of apiRoutes()) router.add(route);
  for (const route of control) router.add(route);
  return router;
}

/** Starts an emulator; resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const now = options.now ?? (() => new Date());
  const state = options.dataFile === undefined ? undefined : await loadSnapshot(options.dataFile);
  let faults: FaultOptions = options.faults ?? {};
  let dice = faultDice(faults);
  const setFaults = (f: FaultOptions): void => {
    faults = f;
    dice = faultDice(f);
  };
  const stats = new RequestStats();
  const ca = await EmulatorCa.create(now());

  const server = createServer({ keepAliveTimeout: 5_000 });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const account = new Account({
    origin: originOf(server.address() as AddressInfo),
    ids: new IdGenerator(now),
    now,
    decorators,
    decoratorInputs,
  });
  const certificateJobs = new CertificateJobs(account, ca, options.certDelayMs ?? DEFAULT_CERT_DELAY_MS);
  account.lifecycle = certificateJobs;
  if (state !== undefined) {
    restore(account, state);
    certificateJobs.resume();
  }

  const router = routerOf(
    controlRoutes({
      getFaults: () => faults,
      setFaults,
      stats: () => stats.snapshot(),
      resetStats: () => stats.reset(),
      certificateJobs,
    }),
  );

  const token = options.token ?? newToken();
  const adminUserId = bootstrap(account, token);

  const saves =
    options.dataFile === undefined
      ? undefined
      : new SaveQueue(options.dataFile, () => JSON.stringify(snapshot(account)), {
          ...(options.onSaveError === undefined ? {} : { onError: options.onSaveError }),
        });
  if (saves !== undefined) {
    account.onChange = () => saves.schedule();
    // The first save happens before anyone can change the account: a data file that cannot be
    // written (permissions, a full disk) stops the start instead of losing every later change.
    saves.schedule();
    try {
      await saves.flush();
    } catch (err) {
      certificateJobs.close();
      server.close();
      throw err;
    }
  }
  server.on(
    'request',
    requestListener({
      account,
      router,
      stats,
      faults: () => faults,
      rateLimiter:
        options.rateLimitPerMinute === undefined ? undefined : new RateLimiter(options.rateLimitPerMinute),
      random: () => dice(),
    }),
  );

  return {
    url: account.origin,
    token,
    adminUserId,
    setFaults,
    stats: () => stats.snapshot(),
    resetStats: () => stats.reset(),
    async close() {
      certificateJobs.close();
      const closed = once(server, 'close');
      server.close();
      server.closeAllConnections();
      await closed;
      await saves?.flush();
    },
  };
}

/**
 * Makes sure an admin user exists and that `token` is an API key of it. The account keeps one
 * bootstrap key: a loaded account whose bootstrap key has another token gets that key re-keyed to
 * `token`, so that restarts of `serve --data` do not pile up keys.
 */
function bootstrap(account: Account, token: string): string {
  let admin = [...account.principals.values()].find((p) => p.kind === 'user' && p.admin);
  if (admin === undefined) {
    admin = { id: account.ids.next('usr_'), kind: 'user', admin: true };
    account.principals.set(admin.id, admin);
  }
  if (account.apiKeyOfToken(token) !== undefined) return admin.id;
  const d = descriptors.api_keys;
  const hidden = { token_hash: hashToken(token), bootstrap: true };
  const existing = account
    .collection('api_keys')
    .all()
    .find((r) => r.hidden.bootstrap === true);
  if (existing !== undefined) {
    account.remove(d, existing);
    account.insert(d, { ...existing, hidden });
    return admin.id;
  }
  account.insert(d, {
    id: account.ids.next(d.idPrefix ?? 'ak_'),
    created_at: account.timestamp(),
    values: withDefaults(d.fields, { description: 'bootstrap key', owner_id: admin.id }),
    hidden,
  });
  return admin.id;
}
