/**
 * The root of acctsync's own errors: each says what went wrong in words for a person and ends a
 * command with its exit code. The CLI edge (`cli/render-error.ts`) renders them; anything else
 * reaching it is a bug in acctsync and is said to be one.
 */
export abstract class AcctsyncError extends Error {
  /** Process exit code when this error ends a command. */
  readonly exitCode: number = 1;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}

/** The user's to fix (bad config, flag, file): shown without a stack trace. */
export class UserError extends AcctsyncError {
  /** Extra lines printed under the message (a code frame, a list of problems, a hint). */
  readonly details: readonly string[];

  constructor(message: string, options: { details?: readonly string[]; cause?: unknown } = {}) {
    super(message, options);
    this.details = options.details ?? [];
  }
}

/**
 * Bad command-line usage: unknown command or flag, bad flag value, missing argument. Exit code 1
 * like every other error: 2 means "changes present" under `--detailed-exitcode`, and a typo in a
 * CI workflow must never read as that.
 */
export class UsageError extends UserError {}

/** An error from the operating system (a file, a socket): `EACCES`, `ENOSPC`, `EADDRINUSE`, ... */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string' && 'syscall' in err;
}

/**
 * A system error as one line for a person: what acctsync was doing, the code, and the OS's words
 * (`cannot write the emulator state .acctsync/embedded.json: ENOSPC (no space left on device)`).
 */
export function systemUserError(doing: string, err: NodeJS.ErrnoException & { code: string }): UserError {
  const words = err.message.replace(/^[A-Z]+: /, '').replace(/,.*$/, '');
  return new UserError(`cannot ${doing}: ${err.code} (${words})`, { cause: err });
}
