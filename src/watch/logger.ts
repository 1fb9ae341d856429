/** The daemon's logger: pino JSON lines by default, a compact human format on request. */
import { pino, type Logger } from 'pino';
import { inert, inertQuoted } from '../inert.js';

export type LogFormat = 'json' | 'pretty';

/**
 * Where secrets could appear in a log object. pino's redaction replaces them before serialization,
 * so a careless `log.info({ request })` cannot leak a key; the API client already keeps the key out
 * of its errors, this is the second layer.
 */
const redactPaths = [
  'apiKey',
  'token',
  'authorization',
  '*.apiKey',
  '*.token',
  '*.authorization',
  '*.headers.authorization',
  '*.private_key_pem',
  '*.client_secret',
  '*.cloud_secret_access_key',
  '*.api_key',
  'err.request.headers.authorization',
];

const levelColours: Readonly<Record<string, string>> = {
  warn: '\x1b[33m',
  error: '\x1b[31m',
  fatal: '\x1b[31m',
};
/** Members every line has, shown in the prefix rather than as key=value. */
const prefixKeys = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'reconcile']);

/** Drift events carry live values: JSON's escaping, then what JSON leaves raw. */
function formatValue(value: unknown): string {
  if (typeof value === 'string') return inert(/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value));
  return inert(JSON.stringify(value) ?? String(value));
}

/**
 * One pino JSON line as `12:00:01 INFO  [3f2a9c1e] reconcile succeeded planned=2 applied=2`.
 * A few lines of code instead of pino-pretty and its dependencies: the daemon's logs are flat.
 */
export function prettyLine(json: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = typeof entry.level === 'string' ? entry.level : 'info';
  const time = typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 19) : '';
  const name = level.toUpperCase().padEnd(5);
  const tag = colour && levelColours[level] !== undefined ? `${levelColours[level]}${name}\x1b[0m` : name;
  const id = typeof entry.reconcile === 'string' ? ` [${entry.reconcile}]` : '';
  const rest = Object.entries(entry)
    .filter(([key]) => !prefixKeys.has(key))
    .map(([key, value]) => `${inert(key)}=${formatValue(value)}`);
  const msg = typeof entry.msg === 'string' ? inert(entry.msg) : '';
  return `${[`${time} ${tag}${id === '' ? '' : inert(id)} ${msg}`, ...rest].join(' ')}\n`;
}

interface LoggerOptions {
  readonly format: LogFormat;
  /** pino level name; default `info`. */
  readonly level?: string;
  /** Where lines go; stdout by default. */
  readonly output?: NodeJS.WritableStream & { readonly isTTY?: boolean };
}

/** Creates the root logger. Colours only when the output is a terminal. */
export function createLogger(options: LoggerOptions): Logger {
  const output = options.output ?? process.stdout;
  const settings = {
    level: options.level ?? 'info',
    redact: { paths: redactPaths, censor: '[redacted]' },
    // `"level":"warn"` rather than 40: what log shippers and people filter on without a lookup table.
    formatters: { level: (label: string) => ({ level: label }) },
  };
  // Drift events carry live values: JSON lines stay exact, their raw C1 and bidi characters escaped.
  if (options.format === 'json')
    return pino(settings, { write: (line: string) => output.write(inertQuoted(line)) });
  const colour = output.isTTY === true;
  return pino(settings, { write: (line: string) => output.write(prettyLine(line, colour)) });
}
