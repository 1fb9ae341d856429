/**
 * The root of acctsync's own errors: each says what went wrong in words for a person and ends a
 * command with exit status 1 (`cli/exit-codes.ts`). The CLI edge (`cli/render-error.ts`) renders them; anything else
 * reaching it is a bug in acctsync and is said to be one.
 */
export abstract class AcctsyncError extends Error {
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

/** What the person can do about a system error, by its code. */
const systemErrorHints: Readonly<Record<string, string>> = {
  EACCES: 'check its permissions, or choose another path',
  EPERM: 'check its permissions, or choose another path',
  ENOENT: 'check the path',
  ENOTDIR: 'part of the path is a file, not a directory: check the path',
  EISDIR: 'it is a directory: name a file',
  ELOOP: 'a symbolic link on the path points back at itself: check the path',
  EEXIST: 'a file is in the way: move it, or choose another path',
  ENOSPC: 'the disk is full: free some space and run again',
  EDQUOT: 'the disk quota is used up: free some space and run again',
  EROFS: 'the file system is read-only: choose a writable path',
  EMFILE: 'too many open files: raise the limit (ulimit -n) and run again',
  ENFILE: 'too many open files on this machine: close some and run again',
};

/** The code, the OS's words and what to do: `ENOSPC (no space left on device); the disk is full: ...`. */
export function describeSystemError(err: NodeJS.ErrnoException & { code: string }): string {
  const words = err.message.replace(/^[A-Z]+: /, '').replace(/,.*$/, '');
  const hint = systemErrorHints[err.code];
  return `${err.code} (${words})${hint === undefined ? '' : `; ${hint}`}`;
}

/**
 * A system error as one line for a person: what acctsync was doing, the code, the OS's words and
 * what to do (`cannot write the plan to p.json: ENOSPC (no space left on device); the disk is full: ...`).
 */
export function systemUserError(doing: string, err: NodeJS.ErrnoException & { code: string }): UserError {
  return new UserError(`cannot ${doing}: ${describeSystemError(err)}`, { cause: err });
}
