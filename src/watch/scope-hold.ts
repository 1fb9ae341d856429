/** What a reconcile in reconcile mode does about the scope's lease before planning (docs/lease.md). */
import { setMaxListeners } from 'node:events';
import { forgedWarning } from '../lease/acquire.js';
import type { Hold, HeldScope } from '../lease/keeper.js';
import type { ReconcileResult } from './types.js';

/** Takes or keeps the scope's lease; the daemon's `hold`, absent for the embedded emulator. */
export type HoldScope = (scope: string) => Promise<Hold>;

/** What a reconcile writes under: the signal, and the lease when it holds one. */
export interface Writing {
  /** The daemon's own, also aborted when the lease is lost. */
  readonly signal: AbortSignal;
  readonly lease?: HeldScope;
  /** The warning when the lease was taken over from a forged record. */
  readonly forged?: string;
}

/**
 * What to write under; or the reconcile's result when this daemon may not write (a standby, or
 * the lease could not be read).
 */
export async function writeSignal(
  hold: HoldScope | undefined,
  scope: string,
  signal: AbortSignal,
): Promise<Writing | { readonly result: ReconcileResult }> {
  if (hold === undefined) return { signal };
  let state: Hold;
  try {
    state = await hold(scope);
  } catch (err) {
    const reason = `could not take the lease on scope ${scope}: ${err instanceof Error ? err.message : String(err)}`;
    return { result: { status: 'failed', planned: 0, applied: [], reason } };
  }
  if (!state.held)
    return {
      result: {
        status: 'standby',
        planned: 0,
        applied: [],
        reason: 'standby',
        details: [state.holder],
        retryInMs: state.retryInMs,
      },
    };
  const writing = AbortSignal.any([signal, state.signal]);
  // The planner's concurrent requests each listen on it while they run: many at once is not a leak.
  setMaxListeners(0, writing);
  return {
    signal: writing,
    lease: state,
    ...(state.forged === undefined ? {} : { forged: forgedWarning(scope, state.forged) }),
  };
}
