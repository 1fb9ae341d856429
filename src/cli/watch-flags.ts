/** The flags of `acctsync watch`, and their values checked before the daemon connects or listens. */
import { UsageError } from '../errors.js';
import { parseDuration } from '../watch/duration.js';
import { parseListen } from '../watch/health.js';
import type { LogFormat } from '../watch/logger.js';
import { parseNotifyUrls } from '../watch/notify.js';
import type { WatchMode } from '../watch/types.js';
import { runFlags, runSettingsFrom } from './apply-flags.js';
import type { FlagValues } from './args.js';
import { connectionOptions } from './connection.js';
import { environmentOptions } from './environment.js';
import { filesRootOptions } from './files-root.js';
import { leaseFlagsFrom, leaseTtlOptions } from './lease-flags.js';
import { ownershipOptions } from './plan-output.js';
import { policyOptions } from './policy.js';
import type { RunSettings } from './run-apply.js';

const defaults = { interval: '5m', debounce: '300ms', listen: '127.0.0.1:9464', grace: '20s' };
const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/** Every flag of `watch`: its own, then those it shares with `plan`, `sync` and every API command. */
export const watchFlags = {
  mode: {
    type: 'string',
    default: 'reconcile',
    value: 'reconcile|observe',
    help: 'reconcile (default) applies plans; observe plans, reports drift and changes nothing',
  },
  interval: {
    type: 'string',
    default: defaults.interval,
    value: 'D',
    help: `full resync period, jittered by 10% (default ${defaults.interval})`,
  },
  debounce: {
    type: 'string',
    default: defaults.debounce,
    value: 'D',
    help: `wait this long after the last file event (default ${defaults.debounce})`,
  },
  listen: {
    type: 'string',
    default: defaults.listen,
    value: 'HOST:PORT',
    help: `serve /healthz, /readyz, /status and /metrics (default ${defaults.listen})`,
  },
  notify: {
    type: 'string',
    multiple: true,
    value: 'URL',
    help: 'POST a JSON event (Slack-compatible) on drift, failures and recovery; repeatable',
  },
  'log-format': {
    type: 'string',
    default: 'json',
    value: 'json|pretty',
    help: 'JSON lines (default) or one readable line per entry',
  },
  'log-level': {
    type: 'string',
    default: 'info',
    value: 'L',
    help: `${logLevels.join(', ')} (default info)`,
  },
  'shutdown-grace': {
    type: 'string',
    default: defaults.grace,
    value: 'D',
    help: `on SIGTERM let running operations finish this long, then abort them (default ${defaults.grace})`,
  },
  ...ownershipOptions,
  ...environmentOptions,
  ...filesRootOptions,
  ...policyOptions,
  ...runFlags,
  ...leaseTtlOptions,
  ...connectionOptions,
} as const;

export type WatchValues = FlagValues<typeof watchFlags>;

/** The flags of `watch`, parsed. */
export interface WatchFlags {
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
export function parseWatchFlags(values: WatchValues): WatchFlags {
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
