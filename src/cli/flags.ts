/**
 * A command's flags as one table: each row drives parsing (its type, default, repeatability), the
 * command's `--help` and docs/cli.md. A flag exists exactly when it has a row.
 */

/** One flag of a command. */
interface Flag {
  readonly type: 'string' | 'boolean';
  /** Repeatable: the values are collected in a list. */
  readonly multiple?: boolean;
  readonly default?: string | boolean;
  /** The value's placeholder in the help (`N`, `FILE`, `text|json`); string flags only. */
  readonly value?: string;
  /** What the flag does, for `--help` and docs/cli.md; `\n` starts a continuation line. */
  readonly help: string;
}

/** A command's flags by long name (without the dashes), in the order `--help` lists them. */
export type FlagTable = Readonly<Record<string, Flag>>;

/** `--name VALUE`, as the help writes a flag. */
export function flagSignature(name: string, flag: Flag): string {
  return flag.type === 'string' ? `--${name} ${flag.value ?? 'VALUE'}` : `--${name}`;
}
