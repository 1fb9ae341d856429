/** The shape of a subcommand module, loaded lazily so `acctsync --help` does not load the world. */
import { parseCommandArgs, type FlagValues } from './args.js';
import type { FlagTable } from './flags.js';

/** What `--help` and docs/cli.md say about a command, and the flags it parses. */
export interface CommandHelp {
  /** As typed after `acctsync`. */
  readonly name: string;
  /** The usage lines, each starting `acctsync <name>`. */
  readonly synopsis: readonly string[];
  /** Paragraphs between the usage lines and the options. */
  readonly description?: string;
  /** Every flag the command accepts; the parser reads this table and nothing else. */
  readonly flags: FlagTable;
  /** Paragraphs after the options. */
  readonly notes?: string;
}

export interface Command extends CommandHelp {
  /** Runs the command; resolves to the process exit code. Throws `UserError`s for the edge to render. */
  run(argv: string[]): Promise<number>;
}

/**
 * Its flag table keeps its type, for the command that parses it ({@link defineCommand}).
 * SECOND PATH (issue 46): a command's help in a data-only module of `cli/help/`, so that
 * `<command> --help` loads it without the command; kept for that wall time, measured by
 * `npm run bench -- --only second-paths --without DIR` (docs/performance.md, "Second paths").
 */
export function defineHelp<F extends FlagTable>(
  help: CommandHelp & { readonly flags: F },
): CommandHelp & {
  readonly flags: F;
} {
  return help;
}

/** A command whose `run` gets its arguments parsed by its own flag table. */
interface CommandSpec<F extends FlagTable> extends CommandHelp {
  readonly flags: F;
  run(values: FlagValues<F>, positionals: string[]): Promise<number>;
}

/** Its flag table keeps its type, for what parses the same flags elsewhere (a container's arguments). */
export function defineCommand<F extends FlagTable>(spec: CommandSpec<F>): Command & { readonly flags: F } {
  return {
    ...spec,
    run: (argv) => {
      const { values, positionals } = parseCommandArgs(spec.name, argv, spec.flags);
      return spec.run(values, positionals);
    },
  };
}
