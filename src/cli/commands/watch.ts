/** `acctsync watch`: the daemon. Reconciles on config changes and on an interval; see docs/watch.md. */
import { setMaxListeners } from 'node:events';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { runSettingsFrom } from '../apply-flags.js';
import type { RunSettings } from '../run-apply.js';
import { defaultGuardOptions, defaultParallelism } from '../../apply/index.js';
import {
  ConfigError,
  defaultApiUrlEnv,
  defaultPaths,
  loadDesiredState,
  type EnvironmentSettings,
} from '../../config/index.js';
import { UsageError } from '../../errors.js';
import { apiEventHandlers } from '../../watch/api-events.js';
import { startDaemon, type Daemon } from '../../watch/daemon.js';
import { formatDuration, parseDuration } from '../../watch/duration.js';
import { parseListen } from '../../watch/health.js';
import { createLogger, type LogFormat } from '../../watch/logger.js';
import { WatchMetrics } from '../../watch/metrics.js';
import { Notifier, parseNotifyUrls } from '../../watch/notify.js';
import { createReconcileStep, type ReconcileSettings } from '../../watch/reconcile.js';
import type { WatchMode } from '../../watch/types.js';
import { parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import {
  clientOptionsFor,
  connectionOptions,
  embeddedUrl,
  openConnection,
  type Connection,
} from '../connection.js';
import { environmentName, environmentOptions, environmentUsage } from '../environment.js';
import { filesRootOptions, filesRootUsage, useFilesRoot } from '../files-root.js';
import { keyRotationReport } from '../api-key-file.js';
import { daemonLease, leaseFlagsFrom, leaseOptions, leaseTtlUsage } from '../lease-flags.js';
import { policiesFrom, policyOptions, policyUsage } from '../policy.js';
import { stopSignal } from '../stop-signal.js';

const defaults = { interval: '5m', debounce: '300ms', listen: '127.0.0.1:9464', grace: '20s' };
/** First retry delay after a failure; doubles per failure up to the interval. */
const backoffBaseMs = 2000;
/** After the grace period requests are aborted; this long again and the process exits regardless. */
const exitDeadlineMs = 5000;

export const options = {
  ...connectionOptions,
  ...environmentOptions,
  ...filesRootOptions,
  mode: { type: 'string', default: 'reconcile' },
  interval: { type: 'string', default: defaults.interval },
  debounce: { type: 'string', default: defaults.debounce },
  listen: { type: 'string', default: defaults.listen },
  'log-format': { type: 'string', default: 'json' },
  'log-level': { type: 'string', default: 'info' },
  'shutdown-grace': { type: 'string', default: defaults.grace },
  adopt: { type: 'boolean', default: false },
  'no-delete': { type: 'boolean', default: false },
  scope: { type: 'string' },
  parallelism: { type: 'string' },
  'continue-on-error': { type: 'boolean', default: false },
  'max-delete-percent': { type: 'string' },
  'max-delete-min-managed': { type: 'string' },
  'token-output': { type: 'string' },
  notify: { type: 'string', multiple: true },
  'lock-ttl': leaseOptions['lock-ttl'],
  ...policyOptions,
} as const;

const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

export const command: Command = {
  summary: 'keep the account equal to the config: reconcile on every change and on an interval',
  usage: `Usage: acctsync watch [PATH...] [options]

Runs until SIGTERM or SIGINT. Reconciles once at start, after every change to the config files
(debounced), and every --interval to undo changes made by hand. A config that fails to load changes
nothing; the mass-delete and empty-config guards always hold (there is no --force). See docs/watch.md.

Options:
  --mode reconcile|observe    reconcile (default) applies plans; observe plans, reports drift and changes nothing
  --interval D                full resync period, jittered by 10% (default ${defaults.interval})
  --debounce D                wait this long after the last file event (default ${defaults.debounce})
  --listen HOST:PORT          serve /healthz, /readyz, /status and /metrics (default ${defaults.listen})
  --notify URL                POST a JSON event (Slack-compatible) on drift, failures and recovery; repeatable
  --log-format json|pretty    JSON lines (default) or one readable line per entry
  --log-level L               ${logLevels.join(', ')} (default info)
  --shutdown-grace D          on SIGTERM let running operations finish this long, then abort them (default ${defaults.grace})
  --adopt                     take over unmanaged objects matching a desired one by natural key
  --no-delete                 delete nothing, apply everything else
  --scope S                   ownership scope (default: the config's scope)
${environmentUsage}
${filesRootUsage}
${policyUsage}
  --parallelism N             operations running at once (default ${defaultParallelism})
  --continue-on-error         after a failure, keep running what does not depend on it
  --max-delete-percent P      refuse plans deleting more than P% of the managed objects (default ${defaultGuardOptions.maxDeletePercent})
  --max-delete-min-managed N  apply that percentage only from N managed objects up (default ${defaultGuardOptions.maxDeleteMinManaged})
  --token-output FILE         write tokens of created API keys and credentials to FILE (JSON, mode 0600)
${leaseTtlUsage}
  --api-url URL               API address, or 'embedded' (default: SVC_API_URL, else embedded)
  --api-key-file FILE         file holding the API key (default: SVC_API_KEY)
  --rate-limit N/m            pace requests below N per minute (the live API allows about 120)

Durations are written like 500ms, 30s, 5m or 1h.`,

  async run(argv) {
    const { values, positionals } = parseCommandArgs('watch', argv, options);
    useFilesRoot(values, process.env);
    const flags = parseWatchFlags(values);
    // Rule files are refused at start too, before any request; each reconcile reads them again.
    await policiesFrom(values);
    const cwd = process.cwd();
    const paths = positionals.length > 0 ? positionals : defaultPaths(cwd);
    const environment = await startingEnvironment(paths, cwd, environmentName(values, process.env));
    requireApi(values, environment);
    const stopRequested = stopSignal();
    const log = createLogger({ format: flags.format, level: flags.level });
    const metrics = new WatchMetrics(flags.mode);
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
        ...(notifyUrls.length === 0
          ? {}
          : {
              notifier: new Notifier({
                urls: notifyUrls,
                mode,
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
};

type WatchValues = ReturnType<typeof parseCommandArgs<typeof options>>['values'];

/** The flags of `watch`, parsed. */
interface WatchFlags {
  readonly intervalMs: number;
  readonly debounceMs: number;
  readonly graceMs: number;
  readonly listen: ReturnType<typeof parseListen>;
  readonly mode: WatchMode;
  readonly notifyUrls: readonly string[];
  readonly format: LogFormat;
  readonly level: string;
  readonly run: RunSettings;
  readonly leaseTtlMs: number;
}

/** Everything the command line can get wrong, checked before connecting or listening. */
function parseWatchFlags(values: WatchValues): WatchFlags {
  const intervalMs = parseDuration(values.interval, '--interval');
  const debounceMs = parseDuration(values.debounce, '--debounce');
  const graceMs = parseDuration(values['shutdown-grace'], '--shutdown-grace');
  const listen = parseListen(values.listen);
  const mode = values.mode;
  if (mode !== 'reconcile' && mode !== 'observe') {
    throw new UsageError(`watch: --mode must be reconcile or observe, not '${mode}'`);
  }
  const notifyUrls = parseNotifyUrls(values.notify ?? []);
  const format = values['log-format'];
  if (format !== 'json' && format !== 'pretty') {
    throw new UsageError(`watch: --log-format must be json or pretty, not '${format}'`);
  }
  const level = values['log-level'];
  if (!logLevels.includes(level)) {
    throw new UsageError(`watch: --log-level must be one of ${logLevels.join(', ')}`);
  }
  const run = runSettingsFrom('watch', values);
  const leaseTtlMs = leaseFlagsFrom('watch', values).ttlMs;
  return { intervalMs, debounceMs, graceMs, listen, mode, notifyUrls, format, level, run, leaseTtlMs };
}

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
  return {
    mode: flags.mode,
    paths: target.paths,
    cwd: target.cwd,
    env: process.env,
    client: target.connection.client,
    adopt: values.adopt,
    noDelete: values['no-delete'],
    ...(values.scope === undefined ? {} : { scope: values.scope }),
    ...(target.environment === undefined ? {} : { environment: target.environment.name }),
    parallelism: run.parallelism,
    continueOnError: run.continueOnError,
    guards: {
      maxDeletePercent: run.guards.maxDeletePercent ?? defaultGuardOptions.maxDeletePercent,
      maxDeleteMinManaged: run.guards.maxDeleteMinManaged ?? defaultGuardOptions.maxDeleteMinManaged,
    },
    ...(run.tokenOutput === undefined ? {} : { tokenOutput: run.tokenOutput }),
    policyPaths: values.policy ?? [],
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
  name: string | undefined,
): Promise<EnvironmentSettings | undefined> {
  const loaded = await loadDesiredState([...paths], {
    env: process.env,
    cwd,
    ...(name === undefined ? {} : { environment: name }),
  });
  if (loaded.ok) return loaded.environment;
  if (name === undefined && loaded.needsEnvironment !== true) return undefined;
  throw new ConfigError(loaded.diagnostics, { secretSpans: loaded.secretSpans });
}
