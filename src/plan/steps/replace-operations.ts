/**
 * The two halves of a replace: create the new object, delete the old one; and whether the old one
 * must go first because it holds the natural key the new one claims.
 */
import { descriptorOf, naturalIdentity, type KindDescriptor } from '../../resources/index.js';
import type { Paired } from '../match.js';
import { resolvedFields, type ResolveRef } from '../normalize.js';
import { byReference, desiredParentId, pathParent } from '../parents.js';
import { deleteRequest, objectParts } from '../requests.js';
import type { FieldChange, Operation, ReasonCode } from '../../plan-format/index.js';
import { creation } from './create-operation.js';
import { changeMasker } from './masking.js';
import { unchangedOf } from './object-changes.js';
import type { OperationContext } from './operation-context.js';
import { recaptureReason } from './token-capture.js';

interface ReplaceReason {
  readonly reason: string;
  readonly reason_code: ReasonCode;
}

/** Why an object is replaced: the fields that cannot change in place, or its token's recapture. */
function replaceReason(d: KindDescriptor, own: readonly FieldChange[], recaptured: boolean): ReplaceReason {
  const forcing = [...new Set(own.filter((c) => c.forcesReplace).map((c) => String(c.path[0])))];
  if (forcing.length === 0 && recaptured)
    return { reason: recaptureReason, reason_code: 'replace_because_token_not_captured' };
  return {
    reason: `${forcing.join(', ')} cannot change in place`,
    reason_code:
      d.parent !== undefined && forcing.every((name) => name === d.parent?.field)
        ? 'replace_because_parent_changed'
        : 'replace_because_immutable',
  };
}

/** Whether the replacing object claims the natural key the replaced one still holds. */
export function replaceClaimsLiveKey(m: Paired, resolve: ResolveRef): boolean {
  const d = descriptorOf(m.desired.kind);
  return (
    d.naturalKey?.claim !== undefined &&
    naturalIdentity(
      d,
      resolvedFields(d, m.desired, resolve),
      desiredParentId(d, m.desired, byReference(resolve)),
    ) === naturalIdentity(d, m.live.record, m.live.parentId)
  );
}

export function replaceOperations(m: Paired, ctx: OperationContext): [Operation, Operation] {
  const { desired: o, live } = m;
  const d = descriptorOf(o.kind);
  const own = (ctx.replacements.changes.get(m) ?? []).map(changeMasker(d, o, live));
  const why = replaceReason(d, own, ctx.capture.recaptured.has(o.key));
  const parent = o.parentKey === undefined ? {} : { parentKey: o.parentKey };
  const cause = ctx.written.causeOf(m);
  const create: Operation = {
    id: `create ${o.key}`,
    action: 'create',
    kind: o.kind,
    key: o.key,
    ...parent,
    changes: own,
    unchanged: unchangedOf(d, o, live, ctx.replacements.resolve),
    dependsOn: [],
    replaces: o.key,
    ...why,
    cause,
    requests: creation(d, o, ctx.metadata.final(o, live.marker), ctx.replacements.resolve),
  };
  const livePath = objectParts(d, live.id, pathParent(d, live).liveParentId);
  const remove: Operation = {
    id: `delete ${o.key}#${live.id}`,
    action: 'delete',
    kind: o.kind,
    key: o.key,
    liveId: live.id,
    ...parent,
    ...pathParent(d, live),
    changes: [],
    dependsOn: [],
    replaces: o.key,
    ...why,
    cause,
    requests: [deleteRequest(livePath)],
  };
  return [create, remove];
}
