/** A pino logger whose JSON lines tests can read back. */
import type { Logger } from 'pino';
import { createLogger } from '../../src/watch/logger.js';

export interface CapturedLog {
  readonly log: Logger;
  /** Every line so far, parsed. */
  readonly entries: () => Record<string, unknown>[];
  /** Messages so far, in order. */
  readonly messages: () => string[];
}

export function captureLog(level = 'debug'): CapturedLog {
  const lines: string[] = [];
  const output = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream;
  const log = createLogger({ format: 'json', level, output });
  const entries = (): Record<string, unknown>[] => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { log, entries, messages: () => entries().map((e) => String(e.msg)) };
}
