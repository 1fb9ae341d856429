/** Thin wrapper over node:util parseArgs that turns its exceptions into usage errors a person can act on. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../suggest.js';
import { UsageError } from '../errors.js';
import type { FlagTable } from './flags.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs's error codes, as Node documents them. */
interface ParseArgsError extends Error {
  readonly code?: string;
}

function usageMessage(command: string, err: ParseArgsError, flags: FlagTable): UsageError {
  const names = Object.keys(flags).map((name) => `--${name}`);
  const option = /'(-{1,2}[\w-]+)/.exec(err.message)?.[1];
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const flag = option ?? '?';
      const hint = didYouMean(flag, names);
      return new UsageError(
        `${command}: unknown option ${flag}`,
        hint === undefined ? {} : { details: [hint] },
      );
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const name = option ?? '';
      const takesValue = name !== '' && flags[name.replace(/^-+/, '')]?.type === 'string';
      return new UsageError(
        takesValue ? `${command}: option ${name} needs a value` : `${command}: option ${name} takes no value`,
      );
    }
    default:
      return new UsageError(`${command}: ${err.message}`);
  }
}

/** What parseArgs reads of a flag table: the help texts stay behind. */
function parserOptions(flags: FlagTable): Options {
  const options: Options = {};
  for (const [name, flag] of Object.entries(flags)) {
    options[name] = {
      type: flag.type,
      ...(flag.multiple === undefined ? {} : { multiple: flag.multiple }),
      ...(flag.default === undefined ? {} : { default: flag.default }),
    };
  }
  return options;
}

/** Parses `argv` by the command's flag table; positionals are allowed, unknown flags are not. */
export function parseCommandArgs<F extends FlagTable>(command: string, argv: string[], flags: F) {
  try {
    // The table's types are what parseArgs would infer from it: the help members change no value.
    return parseArgs({
      args: argv,
      options: parserOptions(flags) as F,
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw usageMessage(command, err as ParseArgsError, flags);
  }
}

/** The values `parseCommandArgs` returns for a flag table. */
export type FlagValues<F extends FlagTable> = ReturnType<typeof parseCommandArgs<F>>['values'];
