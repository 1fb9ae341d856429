/**
 * The update (or adopt, or rename) of a paired object that stays: its changes, the modules to put
 * or remove, and the metadata when it must be rewritten; nothing when the object is as desired. A
 * rename rewrites the marker's key, with the field changes in the same PATCH.
 */
import { descriptorOf, type KindDescriptor } from '../../resources/index.js';
import type { Paired } from '../match.js';
import { pathParent } from '../parents.js';
import { resolvedFields } from '../normalize.js';
import { objectParts, updateRequests } from '../requests.js';
import type { Operation, ReasonCode } from '../../plan-format/index.js';
import { changeMasker } from './masking.js';
import { unchangedOf } from './object-changes.js';
import type { OperationContext } from './operation-context.js';

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
export function updateOperation(m: Paired, ctx: OperationContext): Operation | undefined {
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
