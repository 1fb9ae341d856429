/**
 * The outcome of validating or parsing one value: the parsed value, or a reason written for the user
 * ("prefix 33 is out of range for IPv4 (0-32)"). Validators return this instead of throwing so that
 * callers can collect every problem of a config file, and so that no input string can crash them.
 */
export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

/** A successful {@link Result}. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed {@link Result} with a user-facing reason. */
export function fail<T = never>(reason: string): Result<T> {
  return { ok: false, reason };
}
