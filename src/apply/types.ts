/**
 * What the applier reports: per operation, what happened to it, and for the whole run, the counts a
 * person or a CI job needs. Plain data, printed as text or JSON by the CLI.
 */
import type { OperationAction } from '../plan-format/index.js';
import type { KindName } from '../resources/index.js';

/**
 * `done`: every request of the operation succeeded. `failed`: a request failed (the object may be
 * half-changed; the next plan shows what is left). `not-attempted`: the run stopped before it, or
 * something it depends on failed.
 */
type OperationStatus = 'done' | 'failed' | 'not-attempted';

/** Why an operation failed, as the API said it (no request body, nothing secret). */
export interface OperationFailure {
  /** `ERR_SVC_<n>` from the API, or the transport's code (`ECONNRESET`, `ETIMEDOUT`), or `ERR_ACCTSYNC`. */
  readonly errorCode: string;
  readonly msg: string;
  /** HTTP status when the server answered. */
  readonly status?: number;
  /** `PATCH /ip_policies/ipp_...`: which request of the operation failed. */
  readonly request?: string;
  /**
   * For `ERR_ACCTSYNC_NOT_KEPT`: the member the service answered with another value than the one
   * sent, and both values as JSON text (a secret as `(sensitive)`).
   */
  readonly notKept?: { readonly field: string; readonly sent: string; readonly kept: string };
}

export interface OperationResult {
  readonly id: string;
  readonly action: OperationAction;
  readonly kind: KindName;
  readonly key: string;
  readonly status: OperationStatus;
  /** The object's id after the operation: the new id for a create, the live id otherwise. */
  readonly objectId?: string;
  readonly failure?: OperationFailure;
  /** For `not-attempted`: the failed operation it depends on, when that is the reason. */
  readonly blockedBy?: string;
  /** How an ambiguous create was resolved (`adopted the object the lost response created`, ...). */
  readonly recovery?: string;
  readonly durationMs?: number;
}

interface ApplyCounts {
  readonly done: number;
  readonly failed: number;
  readonly notAttempted: number;
}

export interface ApplyResult {
  /** `succeeded` when every operation is done (an empty plan included). */
  readonly status: 'succeeded' | 'failed';
  readonly operations: readonly OperationResult[];
  readonly counts: ApplyCounts;
  readonly durationMs: number;
  /** Logical keys of token-bearing objects created in this run whose token was written to the token file. */
  readonly tokensSaved: readonly string[];
}
