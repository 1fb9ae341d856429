/** The create of a desired object that has no live counterpart. */
import { descriptorOf, isObjectKey, type DesiredObject, type KindDescriptor } from '../../resources/index.js';
import { resolvedFields, type ResolveRef } from '../normalize.js';
import { createRequests, type Address } from '../requests.js';
import type { Operation, OperationRequest } from '../../plan-format/index.js';
import { changeMasker } from './masking.js';
import type { OperationContext } from './operation-context.js';

/** An object's address as the plan knows it: its id when it exists, else a reference to its key. */
function addressOf(ref: string, resolve: ResolveRef): Address {
  const id = resolve(ref, { kinds: [], readShape: 'id' });
  return isObjectKey(id) ? { ref: id } : id;
}

/** The requests creating `o`, under its parent's path for a kind addressed there. */
export function creation(
  d: KindDescriptor,
  o: DesiredObject,
  metadata: string,
  resolve: ResolveRef,
): OperationRequest[] {
  const parent =
    d.parent?.via === 'path' && o.parentKey !== undefined ? addressOf(o.parentKey, resolve) : undefined;
  return createRequests(d, o, resolvedFields(d, o, resolve), metadata, parent);
}

export function createOperation(o: DesiredObject, ctx: OperationContext): Operation {
  const d = descriptorOf(o.kind);
  const mask = changeMasker(d, o, undefined);
  const values = resolvedFields(d, o, ctx.replacements.resolve);
  const created = Object.keys(d.fields)
    .filter((name) => name in values && !(name === 'metadata' && values[name] === ''))
    .map((name) => mask({ path: [name], after: values[name] }));
  return {
    id: `create ${o.key}`,
    action: 'create',
    kind: o.kind,
    key: o.key,
    ...(o.parentKey === undefined ? {} : { parentKey: o.parentKey }),
    changes: created,
    dependsOn: [],
    reason_code: 'create_because_missing',
    requests: creation(d, o, ctx.metadata.final(o, undefined), ctx.replacements.resolve),
  };
}
