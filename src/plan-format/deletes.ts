/**
 * What a plan's delete removes, read off the operation alone: the objects the service deletes with
 * it (its `cascade`, counted and named for guards and renderers), and whether it deletes an API key
 * acctsync may be running with.
 */
import { countOf, descriptorOf, type KindName } from '../resources/index.js';
import type { Cascade, CascadedObject, Operation } from './types.js';

/** Objects a delete removes: its target and every cascaded child. */
export function removedBy(op: Operation): number {
  return op.action === 'delete' ? 1 + (op.cascade?.objects.length ?? 0) : 0;
}

/** `8 HTTPS edge routes and 1 IP policy rule`: cascaded objects counted by kind, in first-seen order. */
export function countCascaded(objects: readonly CascadedObject[]): string {
  const counts = new Map<KindName, number>();
  for (const c of objects) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => countOf(descriptorOf(kind), n)).join(' and ');
}

/** `, with 8 HTTPS edge routes and 1 IP policy rule` for what goes with a delete. */
export function describeCascade(cascade: Cascade | undefined): string {
  const counted = countCascaded(cascade?.objects ?? []);
  return counted === '' ? '' : `, with ${counted}`;
}

/**
 * Deletes (replaces included) of objects acctsync may be authenticating with: the API does not say
 * which key is in use, and deleting that one cuts off every later request (401).
 */
export function isKeyDelete(op: Operation): boolean {
  return op.action === 'delete' && descriptorOf(op.kind).authenticatesClient === true;
}
