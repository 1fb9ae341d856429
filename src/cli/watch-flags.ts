/** The flags of `acctsync watch`: data only, for its `--help`; watch-settings.ts checks their values. */
import type { FlagValues } from './args.js';
import { environmentOptions } from './environment.js';
import { filesRootOptions } from './files-root.js';
import type { FlagTable } from './flags.js';
import {
  connectionOptions,
  leaseTtlOptions,
  ownershipOptions,
  policyOptions,
  runFlags,
} from './shared-flags.js';

const defaults = { interval: '5m', debounce: '300ms', listen: '127.0.0.1:9464', grace: '20s' };
export const logLevels = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

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
    help: `serve the status page at /, and /healthz, /readyz, /status and /metrics (default ${defaults.listen})`,
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
} as const satisfies FlagTable;

export type WatchValues = FlagValues<typeof watchFlags>;
