/** The one place errors become text for a person. */
import { UserError } from '../errors.js';

export function renderError(err: unknown): { text: string; exitCode: number } {
  if (err instanceof UserError) {
    return { text: [`error: ${err.message}`, ...err.details].join('\n'), exitCode: err.exitCode };
  }
  if (isApiError(err)) {
    return { text: `error: ${err.message}`, exitCode: 1 };
  }
  const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
  return {
    text: `internal error: this is a bug in acctsync, please report it with the lines below.\n${detail}`,
    exitCode: 70,
  };
}

/** API, network and timeout errors from the client carry safe, pre-redacted messages. */
function isApiError(err: unknown): err is Error {
  return err instanceof Error && ['ApiError', 'NetworkError', 'TimeoutError'].includes(err.name);
}
