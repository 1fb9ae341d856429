/** The operations on the configured objects: a create, a replace, an update or nothing for each. */
import { isPaired, type Match } from '../match.js';
import type { Operation } from '../../plan-format/index.js';
import { createOperation } from './create-operation.js';
import type { OperationContext } from './operation-context.js';
import { replaceClaimsLiveKey, replaceOperations } from './replace-operations.js';
import { updateOperation } from './update-operation.js';

interface ObjectOperations {
  readonly operations: readonly Operation[];
  /** Keys of the replaces whose old object must be deleted before the new one is created. */
  readonly deleteFirst: ReadonlySet<string>;
  /** How many configured objects are already as desired. */
  readonly unchanged: number;
}

/** @throws {UserError} when a final metadata value would exceed its limit */
export function objectOperations(matches: readonly Match[], ctx: OperationContext): ObjectOperations {
  const operations: Operation[] = [];
  const deleteFirst = new Set<string>();
  let unchanged = 0;
  for (const m of matches) {
    if (!isPaired(m)) {
      operations.push(createOperation(m.desired, ctx));
    } else if (ctx.replacements.replaced.has(m.desired.key)) {
      if (replaceClaimsLiveKey(m, ctx.replacements.resolve)) deleteFirst.add(m.desired.key);
      operations.push(...replaceOperations(m, ctx));
    } else {
      const update = updateOperation(m, ctx);
      if (update === undefined) unchanged++;
      else operations.push(update);
    }
  }
  ctx.metadata.refuseTooLong();
  return { operations, deleteFirst, unchanged };
}
