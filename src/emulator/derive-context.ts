/** The write the service derives members for, as the derivers (generic and per kind) see it. */
import type { Account } from './account.js';
import type { Principal } from './model.js';

export interface DeriveContext {
  readonly account: Account;
  readonly principal: Principal;
  /** The `uri` of the object being written (module read-only members derive from it). */
  readonly uri: string;
  /** The members written by this request (response names); on create, every member. */
  readonly written: Readonly<Record<string, unknown>>;
  readonly creating: boolean;
  /** The stored members before an update; undefined on create. */
  readonly before?: Readonly<Record<string, unknown>>;
}
