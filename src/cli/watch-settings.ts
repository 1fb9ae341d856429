/** The flags of `acctsync watch` checked before the daemon connects or listens. */
import { UsageError } from '../errors.js';
import { parseDuration } from '../duration.js';
import { parseListen, parseNotifyUrls, type LogFormat, type WatchMode } from '../watch/index.js';
import { runSettingsFrom } from './apply-flags.js';
import { leaseFlagsFrom } from './lease-flags.js';
import type { RunSettings } from './run-apply.js';
import { logLevels, type WatchValues } from './watch-flags.js';

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
