/**
 * What the service's refusals mean for a writer, decided once for the applier and the lease: a
 * unique value already held, and an object that is no longer there.
 */
import type { ApiClient } from './client.js';
import type { RequestOptions } from './options.js';
import { ApiError } from './errors.js';

/**
 * Whether a create was refused because a unique value it claims is held: 409, or the claim's own
 * code (`ERR_SVC_...`), as the live service may answer 400 where the emulator says 409.
 */
export function isClaimConflict(err: unknown, claimCode: string | undefined): boolean {
  return (
    err instanceof ApiError &&
    (err.status === 409 || (claimCode !== undefined && err.errorCode === claimCode))
  );
}

/** Whether the object addressed is not there (404). */
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404;
}

/** Deletes `path`; a 404 counts as done: a retried DELETE whose first try committed gets one. */
export async function deleteIfPresent(
  client: ApiClient,
  path: string,
  options: Pick<RequestOptions, 'beforeSend'> = {},
): Promise<void> {
  try {
    await client.delete(path, options);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
