/**
 * The order the applier runs a plan's operations in: dependencies, unique values freed before
 * they are claimed, and deletes of API keys acctsync may be using last.
 */
import type { DesiredObject } from '../../resources/index.js';
import { claimsOf } from '../claims.js';
import { keyDeletesLast } from '../key-in-use.js';
import type { LiveObject } from '../../live/index.js';
import type { ResolveRef } from '../normalize.js';
import { orderOperations } from '../order.js';
import type { Operation } from '../../plan-format/index.js';

interface OrderingInputs {
  readonly desiredByKey: ReadonlyMap<string, DesiredObject>;
  readonly liveObjects: readonly LiveObject[];
  readonly deleteFirst: ReadonlySet<string>;
  readonly resolve: ResolveRef;
}

interface OrderedOperations {
  readonly operations: readonly Operation[];
  /** Deletes that will fail because an object outside this plan still references the target. */
  readonly blocked: readonly string[];
}

export function orderPlan(planned: readonly Operation[], inputs: OrderingInputs): OrderedOperations {
  const liveById = new Map(inputs.liveObjects.map((l) => [l.id, l]));
  const ordered = orderOperations(planned, {
    desired: inputs.desiredByKey,
    live: inputs.liveObjects,
    deleteFirst: inputs.deleteFirst,
    claims: claimsOf(planned, { desiredByKey: inputs.desiredByKey, liveById, resolve: inputs.resolve }),
  });
  return { operations: keyDeletesLast(ordered.operations), blocked: ordered.blocked };
}
