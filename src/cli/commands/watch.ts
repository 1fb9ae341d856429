/** `acctsync watch`: the daemon. Reconciles on config changes and on an interval; see docs/watch.md. */
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import {
  ConfigError,
  defaultApiUrlEnv,
  defaultPaths,
  loadDesiredState,
  type EnvironmentSettings,
} from '../../config/index.js';
import { UsageError } from '../../errors.js';
import {
  Notifier,
  WatchMetrics,
  apiEventHandlers,
  createLogger,
  createReconcileStep,
  startDaemon,
  type Daemon,
  type ReconcileSettings,
} from '../../watch/index.js';
import { formatDuration } from '../../duration.js';
import { builtinKinds } from '../../resources/index.js';
import { thisHolder, type Holder } from '../../lease/index.js';
import { keyRotationReport } from '../api-key-file.js';
import { defineCommand } from '../command.js';
import { help } from '../help/watch.js';
import { clientOptionsFor, embeddedUrl, openConnection, type Connection } from '../connection.js';
import { environmentName } from '../environment.js';
import { filesRootFrom } from '../files-root.js';
import { daemonLease } from '../lease-flags.js';
import { policiesFrom } from '../policy.js';
import { stopSignal } from '../stop-signal.js';
import type { WatchValues } from '../watch-flags.js';
import { parseWatchFlags, type WatchFlags } from '../watch-settings.js';

/** First retry delay after a failure; doubles per failure up to the interval. */
const backoffBaseMs = 2000;
/** After the grace period requests are aborted; this long again and the process exits regardless. */
const exitDeadlineMs = 5000;

export const command = defineCommand({
  ...help,

  async run(values, positionals) {
    const flags = parseWatchFlags(values);
    // Rule files are refused at start too, before any request; each reconcile reads them again.
    await policiesFrom(values);
    const cwd = process.cwd();
    const paths = positionals.length > 0 ? positionals : defaultPaths(cwd);
    const environment = await startingEnvironment(paths, cwd, values);
    requireApi(values, environment);
    const stopRequested = stopSignal();
    const log = createLogger({ format: flags.format, level: flags.level });
    const metrics = new WatchMetrics(builtinKinds, flags.mode, environment?.name);
    // Aborts requests in flight once the shutdown grace period is over.
    const abort = new AbortController();
    // Every request in flight listens on it (and detaches when done): many at once is not a leak.
    setMaxListeners(0, abort.signal);
    const connection = await openConnection({
      flags: values,
      env: process.env,
      cwd,
      client: {
        ...clientOptionsFor(flags.run.parallelism),
        signal: abort.signal,
        // Retries are logged at debug under the reconcile that made them, and summarised by it.
        ...apiEventHandlers(log, metrics.api),
      },
      announce: (line) => log.info(line),
      ...(environment === undefined ? {} : { environment }),
      onKeyRotated: keyRotationReport(log, metrics, values['api-key-file']),
    });
    let daemon: Daemon | undefined;
    const keeper = daemonLease(connection, flags.mode, flags.leaseTtlMs, () => daemon?.reconcileNow());
    try {
      const { intervalMs, mode, notifyUrls } = flags;
      daemon = await startDaemon({
        paths: paths.map((p) => resolve(cwd, p)),
        log,
        metrics,
        intervalMs,
        debounceMs: flags.debounceMs,
        backoff: { baseMs: Math.min(backoffBaseMs, intervalMs), maxMs: intervalMs },
        listen: flags.listen,
        mode,
        api: connection.url,
        environment: environment?.name,
        leaseHolder: keeper === undefined ? undefined : shownHolder(thisHolder('acctsync watch')),
        ...(notifyUrls.length === 0
          ? {}
          : {
              notifier: new Notifier({
                urls: notifyUrls,
                mode,
                ...(environment === undefined ? {} : { environment: environment.name }),
                log,
                observer: metrics.notifications(notifyUrls.length),
              }),
            }),
        reconcile: createReconcileStep({
          ...reconcileSettings(values, flags, { paths, cwd, environment, connection }),
          ...(keeper === undefined ? {} : { hold: (scope: string) => keeper.hold(scope) }),
        }),
      });
      log.info(
        {
          api: connection.url,
          mode,
          interval: formatDuration(intervalMs),
          ...(environment === undefined ? {} : { environment: environment.name }),
        },
        'acctsync watch started',
      );
      await stopGracefully(daemon, await stopRequested, { log, abort, graceMs: flags.graceMs });
      return 0;
    } finally {
      await keeper?.release().catch((err: unknown) => log.warn({ err }, 'could not release the lease'));
      await connection.close();
      // A handle something leaked must not keep a stopped daemon alive past its bounded shutdown.
      setTimeout(() => process.exit(), exitDeadlineMs).unref();
    }
  },
});

/** This daemon as `describeHolder` shows a lease's holder, less the time it took the lease. */
const shownHolder = (holder: Holder): string => `'${holder.command}' on ${holder.host} (pid ${holder.pid})`;

/** A daemon quietly reconciling a throwaway emulator looks healthy while managing nothing. */
function requireApi(values: WatchValues, environment: EnvironmentSettings | undefined): void {
  const urlVariable = environment?.apiUrlEnv ?? defaultApiUrlEnv;
  if ((values['api-url'] ?? process.env[urlVariable] ?? '') === '') {
    throw new UsageError(
      `watch: no API given: set ${urlVariable} (or --api-url URL), or say --api-url ${embeddedUrl} to use the embedded emulator`,
    );
  }
}

/** Where the daemon runs: the config, and the account it connected to. */
interface WatchTarget {
  readonly paths: readonly string[];
  readonly cwd: string;
  readonly environment: EnvironmentSettings | undefined;
  readonly connection: Connection;
}

function reconcileSettings(values: WatchValues, flags: WatchFlags, target: WatchTarget): ReconcileSettings {
  const { run } = flags;
  // The daemon never skips a guard: only the limits given as flags go on.
  const { force: _force, ...guards } = run.guards;
  return {
    mode: flags.mode,
    paths: target.paths,
    cwd: target.cwd,
    filesRoot: filesRootFrom(values),
    env: process.env,
    client: target.connection.client,
    adopt: values.adopt,
    noDelete: values['no-delete'],
    ...(values.scope === undefined ? {} : { scope: values.scope }),
    ...(target.environment === undefined ? {} : { environment: target.environment.name }),
    parallelism: run.parallelism,
    continueOnError: run.continueOnError,
    guards,
    ...(run.tokenOutput === undefined ? {} : { tokenOutput: run.tokenOutput }),
    policyPaths: values.policy ?? [],
    // The config's kinds: the loader knows the built-in ones alone.
    kinds: builtinKinds,
  };
}

interface Shutdown {
  readonly log: Logger;
  /** Aborts the requests in flight. */
  readonly abort: AbortController;
  readonly graceMs: number;
}

/**
 * Stops the daemon on `signal`: running operations finish, until the grace period is over or a
 * second signal arrives, which abort the requests in flight.
 */
async function stopGracefully(
  daemon: Daemon,
  signal: NodeJS.Signals,
  { log, abort, graceMs }: Shutdown,
): Promise<void> {
  log.info({ signal, graceMs }, 'stopping: no new reconciles, letting running operations finish');
  const abortNow = (reason: string): void => {
    if (abort.signal.aborted) return;
    log.warn(`${reason}: aborting the requests in flight`);
    abort.abort(new Error(reason));
  };
  const grace = setTimeout(() => abortNow('the shutdown grace period is over'), graceMs);
  const again = (): void => abortNow('a second signal arrived');
  process.on('SIGTERM', again).on('SIGINT', again);
  try {
    await daemon.stop();
  } finally {
    clearTimeout(grace);
    process.off('SIGTERM', again).off('SIGINT', again);
  }
  log.info('stopped');
}

/**
 * The environment the daemon works on, read from the config once at start: it names the account to
 * connect to. A config without environments may be broken at start (the daemon reports it and
 * waits for a fix); one that declares them must load, or the account is unknown.
 */
async function startingEnvironment(
  paths: readonly string[],
  cwd: string,
  values: WatchValues,
): Promise<EnvironmentSettings | undefined> {
  const name = environmentName(values, process.env);
  const loaded = await loadDesiredState([...paths], {
    env: process.env,
    cwd,
    filesRoot: filesRootFrom(values),
    ...(name === undefined ? {} : { environment: name }),
  });
  if (loaded.ok) return loaded.environment;
  if (name === undefined && loaded.needsEnvironment !== true) return undefined;
  throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
}
