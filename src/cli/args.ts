/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new UsageError(`${command}: ${message}`, {
      details: [`Run 'acctsync ${command} --help' for usage.`],
    });
  }
}
