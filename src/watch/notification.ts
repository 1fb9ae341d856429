/**
 * What a notification is: its body, how urgent it is, and how two pending ones of the same kind
 * fold into one when a webhook falls behind.
 */
import { counted } from '../count.js';
import type { NotConverging } from './convergence.js';
import type { DriftEvent } from './drift.js';
import type { WatchMode } from './types.js';

type NotificationType =
  | 'drift_found'
  | 'drift_reverted'
  | 'not_converging'
  | 'apply_failed'
  | 'config_invalid'
  | 'recovered'
  | 'lease_forged';

/** The body POSTed to every URL; `text` makes it a valid Slack incoming-webhook message. */
export interface Notification {
  readonly event: NotificationType;
  readonly text: string;
  readonly at: string;
  readonly mode: WatchMode;
  /** The environment the daemon keeps, for a config that declares environments; the text names it too. */
  readonly environment?: string;
  readonly reconcile: string;
  /** The reconcile's status and one-line reason, for failures. */
  readonly status?: string;
  readonly reason?: string;
  /** Consecutive failures: for `recovered`, how many there were. */
  readonly failures?: number;
  readonly objects?: readonly DriftEvent[];
  /** For `not_converging`: the objects whose writes are held back. */
  readonly notConverging?: readonly NotConverging[];
}

/**
 * Changes of the daemon's state: never merged, never dropped before a drift report, sent in the
 * order they happened, and never behind a backlog of drift reports.
 */
export function isStateChange(event: NotificationType): boolean {
  return (
    event === 'config_invalid' ||
    event === 'apply_failed' ||
    event === 'recovered' ||
    event === 'lease_forged'
  );
}

const objectList = (objects: readonly DriftEvent[]): string =>
  objects.map((o) => `${o.key} (${o.changes.map((c) => c.field).join(', ') || o.action})`).join('; ');

/** How a notification's text opens: `acctsync:`, or `acctsync (production):` for an environment. */
export function speaker(environment: string | undefined): string {
  return environment === undefined ? 'acctsync:' : `acctsync (${environment}):`;
}

/** The `text` of a drift notification. */
export function driftText(
  event: 'drift_found' | 'drift_reverted',
  objects: readonly DriftEvent[],
  mode: WatchMode,
  environment?: string,
): string {
  if (event === 'drift_reverted')
    return `${speaker(environment)} reverted ${counted(objects.length, 'object', 'objects')} changed outside the config: ${objectList(objects)}`;
  return `${speaker(environment)} ${counted(objects.length, 'object differs', 'objects differ')} from the config${mode === 'observe' ? ' (observe mode: not reverted)' : ''}: ${objectList(objects)}`;
}

/**
 * `newer` folded into `older` when both wait for the same webhook: reverted objects add up (the
 * latest revert of an object wins), and the latest unreverted drift replaces an earlier report of
 * it, since it is the account's state now. Undefined when the two do not merge.
 */
export function mergeNotifications(older: Notification, newer: Notification): Notification | undefined {
  if (older.event !== newer.event) return undefined;
  if (newer.event === 'drift_found') return newer;
  if (newer.event !== 'drift_reverted') return undefined;
  const byObject = new Map<string, DriftEvent>();
  for (const o of [...(older.objects ?? []), ...(newer.objects ?? [])]) byObject.set(`${o.kind}/${o.key}`, o);
  const objects = [...byObject.values()];
  return { ...newer, objects, text: driftText('drift_reverted', objects, newer.mode, newer.environment) };
}
