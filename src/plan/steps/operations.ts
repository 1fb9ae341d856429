/**
 * The operations on the configured objects: a create for a desired object with no live
 * counterpart; for a paired one, a replace (create the new object, delete the old one, the old one
 * first when it holds the natural key the new one claims), an update (or adopt, or rename: its
 * changes, the modules to put or remove, the metadata when it must be rewritten), or nothing when
 * it is as desired. A rename rewrites the marker's key, with the field changes in the same PATCH.
 */
import {
  descriptorOf,
  isObjectKey,
  naturalIdentity,
  type DesiredObject,
  type KindDescriptor,
} from '../../resources/index.js';
import { isPaired, type Match, type Paired } from '../match.js';
import { byReference, desiredParentId, pathParent } from '../parents.js';
import { resolvedFields, type ResolveRef } from '../normalize.js';
import { createRequests, deleteRequest, objectParts, updateRequests, type Address } from '../requests.js';
import type { FieldChange, Operation, OperationRequest, ReasonCode } from '../../plan-format/index.js';
import { changeMasker, unchangedOf, type Replacements } from './changes.js';
import type { MetadataWriter } from './ownership-metadata.js';
import { recaptureReason, type TokenCapture } from './token-capture.js';
import type { WrittenStates } from '../written-state.js';

/** What the operation builders of one plan share. */
interface OperationContext {
  readonly replacements: Replacements;
  readonly capture: TokenCapture;
  readonly metadata: MetadataWriter;
  readonly written: WrittenStates;
}

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

/** An object's address as the plan knows it: its id when it exists, else a reference to its key. */
function addressOf(ref: string, resolve: ResolveRef): Address {
  const id = resolve(ref, { kinds: [], readShape: 'id' });
  return isObjectKey(id) ? { ref: id } : id;
}

/** The requests creating `o`, under its parent's path for a kind addressed there. */
function creation(
  d: KindDescriptor,
  o: DesiredObject,
  metadata: string,
  resolve: ResolveRef,
): OperationRequest[] {
  const parent =
    d.parent?.via === 'path' && o.parentKey !== undefined ? addressOf(o.parentKey, resolve) : undefined;
  return createRequests(d, o, resolvedFields(d, o, resolve), metadata, parent);
}

function createOperation(o: DesiredObject, ctx: OperationContext): Operation {
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
function replaceClaimsLiveKey(m: Paired, resolve: ResolveRef): boolean {
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

function replaceOperations(m: Paired, ctx: OperationContext): [Operation, Operation] {
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

/** Why a rename is one: the header already shows the key before and after. */
const renameReasons = {
  moved: () => ['a moved: entry', 'rename_because_moved'],
  'unique value': (d) => [
    `same ${d.naturalKey?.fields.join(' and ') ?? ''}`,
    'rename_because_same_unique_value',
  ],
  parent: () => ['its parent is renamed', 'rename_because_parent_renamed'],
  pin: () => ['pinned by its id', 'rename_because_pinned'],
} as const satisfies Record<
  NonNullable<Paired['renamedBy']>,
  (d: KindDescriptor) => readonly [string, ReasonCode]
>;

function updateReason(
  d: KindDescriptor,
  m: Paired,
  changed: boolean,
): { reason?: string; reason_code: ReasonCode } {
  if (m.renamedFrom !== undefined) {
    const [reason, reason_code] = renameReasons[m.renamedBy ?? 'pin'](d);
    return { reason, reason_code };
  }
  if (m.adopted) {
    if (m.adoptedBy === 'pin')
      return { reason: 'unmanaged object pinned by its id', reason_code: 'adopt_by_pin' };
    if (m.adoptedBy === 'description')
      return { reason: 'unmanaged object with the same description', reason_code: 'adopt_by_description' };
    return m.adoptedBy === 'marked children'
      ? {
          reason: 'unmanaged object whose nested items carry its marker',
          reason_code: 'adopt_by_marked_children',
        }
      : { reason: 'unmanaged object with the same natural key', reason_code: 'adopt_by_natural_key' };
  }
  return changed
    ? { reason_code: 'update_because_changed' }
    : { reason: 'ownership marker refreshed', reason_code: 'update_because_marker_stale' };
}

/** The object's update or adopt; undefined when it is already as desired. */
function updateOperation(m: Paired, ctx: OperationContext): Operation | undefined {
  const { desired: o, live } = m;
  const d = descriptorOf(o.kind);
  const own = (ctx.replacements.changes.get(m) ?? []).map(changeMasker(d, o, live));
  // Hashes in the earlier format are upgraded when the object is written anyway, never by a
  // write of their own: an account synced before scrypt must not see every secret as changed.
  // Built once: an object that is not written keeps (and notes) the value it was compared by.
  const kept = own.length > 0 || m.adopted ? undefined : ctx.metadata.marked(o, live.marker, false);
  const written = kept === undefined || kept.value !== live.record.metadata;
  const metadata = written ? ctx.metadata.final(o, live.marker) : ctx.metadata.noted(o, kept);
  const rewrite = metadata !== live.record.metadata;
  if (own.length === 0 && !rewrite && !m.adopted) return undefined;
  const parent = pathParent(d, live);
  const requests = updateRequests(d, o, resolvedFields(d, o, ctx.replacements.resolve), own, {
    path: objectParts(d, live.id, parent.liveParentId),
    metadata: rewrite || m.adopted ? metadata : undefined,
  });
  const action = m.adopted ? 'adopt' : m.renamedFrom === undefined ? 'update' : 'rename';
  return {
    id: `${action} ${o.key}`,
    action,
    kind: o.kind,
    key: o.key,
    liveId: live.id,
    ...(m.renamedFrom === undefined ? {} : { renamedFrom: m.renamedFrom }),
    ...(o.parentKey === undefined ? {} : { parentKey: o.parentKey }),
    ...parent,
    changes: own,
    unchanged: unchangedOf(d, o, live, ctx.replacements.resolve),
    dependsOn: [],
    ...updateReason(d, m, own.length > 0),
    ...(action === 'update' ? { cause: ctx.written.causeOf(m) } : {}),
    requests,
  };
}
