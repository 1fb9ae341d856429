/** The shape of a subcommand module, loaded lazily so `acctsync --help` does not load the world. */
export interface Command {
  /** One line for `acctsync --help`. */
  readonly summary: string;
  /** Full usage text for `acctsync <command> --help`. */
  readonly usage: string;
  /** Runs the command; resolves to the process exit code. Throws `UserError`s for the edge to render. */
  run(argv: string[]): Promise<number>;
}
