/** The shape of a request as handlers see it, and of their answer. */
import type { Account } from './account.js';
import type { Principal } from './model.js';

export interface Call {
  readonly account: Account;
  readonly principal: Principal;
  /** Path parameters by the route pattern's names. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body; `{}` when the request had none. */
  readonly body: unknown;
}

export interface Reply {
  readonly status: number;
  /** JSON body; absent for 204. */
  readonly body?: unknown;
  /**
   * The body already as JSON text, or as its UTF-8 bytes (cached responses); sent instead of
   * `body` when present.
   */
  readonly json?: string | Buffer;
}

export type Handler = (call: Call) => Reply | Promise<Reply>;
