/**
 * Durations: on the command line as `500ms`, `30s`, `5m`, `1h` or combinations like `1m30s`
 * (`parseDuration`, and `formatDuration` for the usage text), in messages as seconds (`secondsText`).
 */
import { UsageError } from './errors.js';

const unitMs: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration into milliseconds. A bare number is rejected rather than guessed: `--interval 5`
 * could mean seconds or minutes, and a wrong guess makes a daemon hammer the API or sit idle.
 * @throws {UsageError} naming the flag when the text is not a positive duration
 */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim();
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let end = 0;
  for (let match = part.exec(trimmed); match !== null; match = part.exec(trimmed)) {
    total += Number(match[1]) * (unitMs[match[2] ?? ''] ?? NaN);
    end = part.lastIndex;
  }
  if (end === 0 || end !== trimmed.length || !Number.isFinite(total) || total <= 0) {
    throw new UsageError(`${flag} ${text} is not a duration: write it like 500ms, 30s, 5m or 1h`);
  }
  return Math.round(total);
}

/** `300000` → `5m`, for logs and the usage text. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/** `90000` → `90 s`, `1500` → `1.5 s`: a duration in a message for a person (a budget, a wait). */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
}
