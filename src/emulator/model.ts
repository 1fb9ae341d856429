/**
 * The emulated account's model types: who calls, what a found object is, what the service does
 * after a write, event deliveries and simulated agents. Types only, so that every emulator module
 * can share them without importing the account.
 */
import type { KindDescriptor } from '../resources/index.js';
import type { StoredRecord } from './collection.js';

/** A user or bot that can own API keys and credentials. */
export interface Principal {
  readonly id: string;
  readonly kind: 'user' | 'bot';
  readonly admin: boolean;
}

/** A found object and its kind. */
export interface Located {
  readonly d: KindDescriptor;
  readonly record: StoredRecord;
}

/** Service-side processes that follow the API's writes (certificate provisioning). */
export interface Lifecycle {
  /** After a create (`before` undefined) or an update of `record`. */
  written(
    d: KindDescriptor,
    record: StoredRecord,
    before: Readonly<Record<string, unknown>> | undefined,
  ): void;
  removed(d: KindDescriptor, record: StoredRecord): void;
}

/** The payload gaps.md gives a delivered event. */
export interface DeliveredEvent {
  readonly event_id: string;
  readonly event_type: string;
  readonly event_timestamp: string;
  readonly object: unknown;
}

export interface Delivery {
  readonly subscription_id: string;
  readonly destination_id: string;
  readonly event: DeliveredEvent;
}

/**
 * Where an agent stands on updates: `available` (an update within its major version exists),
 * `none`, `disabled` (update checks off in its configuration), `updating`, `updated` (updated but
 * not yet restarted).
 */
export const updateStates = ['available', 'none', 'disabled', 'updating', 'updated'] as const;
export type UpdateState = (typeof updateStates)[number];

/** How an agent's tunnel session connects, by the kind of its credential. */
export type SessionTransport = 'svc/v2' | 'ssh';

/** A command an agent received, and what became of it. */
interface AgentCommand {
  readonly command: string;
  readonly session_id: string;
  readonly at: string;
  readonly outcome: 'done' | 'refused';
  readonly reason?: string;
}

export interface Agent {
  readonly id: string;
  readonly credential_id: string;
  readonly os: string;
  agent_version: string;
  /** The version an update moves to; never a new major version. */
  update_version: string;
  readonly region: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly ip: string;
  readonly metadata: string;
  update: UpdateState;
  status: 'online' | 'stopped';
  /** The current session; null once stopped. */
  session_id: string | null;
  /** Every session the agent had, oldest first. */
  readonly sessions: string[];
  readonly commands: AgentCommand[];
}
