/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors a person can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../config/suggest.js';
import { UsageError } from '../errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs's error codes, as Node documents them. */
interface ParseArgsError extends Error {
  readonly code?: string;
}

function usageMessage(command: string, err: ParseArgsError, options: Options): UsageError {
  const flags = Object.keys(options).map((name) => `--${name}`);
  const option = /'(-{1,2}[\w-]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const flag = option ?? '?';
      const hint = didYouMean(flag, flags);
      return new UsageError(
        `${command}: unknown option ${flag}`,
        hint === undefined ? {} : { details: [hint] },
      );
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = option ?? '';
      const takesValue = name !== '' && options[name.replace(/^-+/, '')]?.type === 'string';
      return new UsageError(
        takesValue ? `${command}: option ${name} needs a value` : `${command}: option ${name} takes no value`,
      );
    }
    default:
      return new UsageError(`${command}: ${err.message}`);
  }
}

export function parseCommandArgs<O extends Options>(command: string, argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageMessage(command, err as ParseArgsError, options);
  }
}
