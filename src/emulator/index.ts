/**
 * The Account Management API emulator, in process: `startEmulator` serves the whole API of
 * `account-api.md` and `gaps.md` on a local port, plus a control surface under `/_emulator/`.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Account } from './account.js';
import { bootstrap } from './bootstrap.js';
import { CertificateJobs } from './certificate-jobs.js';
import { controlRoutes } from './control.js';
import { FaultSwitch, type FaultOptions } from './faults.js';
import { IdGenerator } from './ids.js';
import { kindBehaviour } from './kind-behaviour.js';
import { loadSnapshot, restore, SaveQueue, snapshot, type Snapshot } from './persistence.js';
import { newToken } from './platform.js';
import { RateLimiter } from './rate-limit.js';
import { Router, type Route } from './router.js';
import { apiRoutes } from './routes.js';
import { requestListener } from './server.js';
import { EmulatorCa } from './x509.js';
import { builtinKinds, type KindRegistry } from '../resources/index.js';
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
  /**
   * The rolling window of `rateLimitPerMinute`, default a minute: a test keeps the budget's ratio
   * over a shorter window (10 per 5 s is 120 a minute) and runs in seconds.
   */
  readonly rateLimitWindowMs?: number;
  readonly faults?: FaultOptions;
  /**
   * How long a certificate provisioning job takes before the certificate is issued
   * (default {@link DEFAULT_CERT_DELAY_MS}).
   */
  readonly certDelayMs?: number;
  /**
   * Trust `X-Forwarded-Proto` and `X-Forwarded-Host` from the proxy in front: addresses in answers
   * (`uri`, `next_page_uri`) use them. Otherwise they use the request's Host.
   */
  readonly trustProxy?: boolean;
  /**
   * Answer with what was written, as written, instead of as the vendor's examples show where the
   * spec is silent (docs/emulator.md, "How it answers"): for tests that need an echo.
   */
  readonly echo?: boolean;
  /** The clock of `created_at`, ids and answers' `Date` header; tests pin it or move it. */
  readonly now?: () => Date;
  /** The kinds it serves, for its whole life: the built-in ones unless a test adds its own. */
  readonly kinds?: KindRegistry;
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

/** An HTTP server listening on the options' host and port (a free one by default). */
async function listen(options: EmulatorOptions): Promise<Server> {
  const server = createServer({ keepAliveTimeout: 5_000 });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  return server;
}

interface OpenAccount {
  readonly account: Account;
  readonly certificateJobs: CertificateJobs;
}

/** The account served at `origin`, with its certificate jobs, restored from `state` when given. */
function openAccount(
  origin: string,
  now: () => Date,
  options: EmulatorOptions,
  ca: EmulatorCa,
  state: Snapshot | undefined,
): OpenAccount {
  const account = new Account({
    kinds: options.kinds ?? builtinKinds,
    origin,
    ids: new IdGenerator(now),
    now,
    behaviour: kindBehaviour,
    answers: options.echo === true ? 'echo' : 'vendor',
  });
  const certificateJobs = new CertificateJobs(account, ca, options.certDelayMs ?? DEFAULT_CERT_DELAY_MS);
  account.lifecycle = certificateJobs;
  if (state !== undefined) {
    restore(account, state);
    certificateJobs.resume();
  }
  return { account, certificateJobs };
}

/** The API's routes, then the control surface's. */
function routerOf(kinds: KindRegistry, control: Iterable<Route>): Router {
  const router = new Router();
  for (const route of apiRoutes(kinds)) router.add(route);
  for (const route of control) router.add(route);
  return router;
}

/**
 * Saves the account to the data file after every change; undefined without a data file. The first
 * save happens before anyone can change the account: a data file that cannot be written
 * (permissions, a full disk) stops the start instead of losing every later change.
 */
async function startSaving(account: Account, options: EmulatorOptions): Promise<SaveQueue | undefined> {
  if (options.dataFile === undefined) return undefined;
  const saves = new SaveQueue(options.dataFile, () => JSON.stringify(snapshot(account)), {
    ...(options.onSaveError === undefined ? {} : { onError: options.onSaveError }),
  });
  account.onChange = () => saves.schedule();
  saves.schedule();
  await saves.flush();
  return saves;
}

/** What a started emulator is made of, for its handle. */
interface EmulatorParts extends OpenAccount {
  readonly server: Server;
  readonly token: string;
  readonly adminUserId: string;
  readonly setFaults: (faults: FaultOptions) => void;
  readonly stats: RequestStats;
  readonly saves: SaveQueue | undefined;
}

function runningEmulator(parts: EmulatorParts): RunningEmulator {
  const { server, account, certificateJobs, stats, saves } = parts;
  return {
    url: account.listenOrigin,
    token: parts.token,
    adminUserId: parts.adminUserId,
    setFaults: parts.setFaults,
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

/** Starts an emulator; resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const kinds = options.kinds ?? builtinKinds;
  const now = options.now ?? (() => new Date());
  const state = options.dataFile === undefined ? undefined : await loadSnapshot(options.dataFile, kinds);
  const faults = new FaultSwitch(options.faults ?? {});
  const stats = new RequestStats();
  const ca = await EmulatorCa.create(now());
  const server = await listen(options);
  const opened = openAccount(originOf(server.address() as AddressInfo), now, options, ca, state);
  const { account, certificateJobs } = opened;
  const setFaults = (f: FaultOptions): void => {
    faults.set(f);
    account.notKept = f.notKept;
  };
  setFaults(options.faults ?? {});
  const router = routerOf(
    kinds,
    controlRoutes({
      getFaults: () => faults.current,
      setFaults: (f) => setFaults(f),
      stats: () => stats.snapshot(),
      resetStats: () => stats.reset(),
      certificateJobs,
    }),
  );
  const token = options.token ?? newToken();
  const adminUserId = bootstrap(account, token);
  let saves: SaveQueue | undefined;
  try {
    saves = await startSaving(account, options);
  } catch (err) {
    certificateJobs.close();
    server.close();
    throw err;
  }
  const rateLimiter =
    options.rateLimitPerMinute === undefined
      ? undefined
      : new RateLimiter(options.rateLimitPerMinute, options.rateLimitWindowMs);
  const listener = requestListener({
    account,
    router,
    stats,
    faults: () => faults.current,
    rateLimiter,
    random: () => faults.roll(),
    trustProxy: options.trustProxy ?? false,
  });
  server.on('request', listener);
  return runningEmulator({ ...opened, server, token, adminUserId, setFaults, stats, saves });
}
