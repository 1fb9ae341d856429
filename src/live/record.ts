/**
 * The one reader of a live record: which object it is (kind, id), its parent, the ownership marker
 * in its `metadata` and the metadata the user wrote. The planner, the applier's recovery of a lost
 * create and the exporter all read records through it, so they cannot disagree about whose an
 * object is.
 */
import { isPlainObject } from '../plain-object.js';
import {
  parseMetadata,
  type KindDescriptor,
  type KindName,
  type OwnershipMarker,
} from '../resources/index.js';

/** One live object as the API returned it, with its ownership marker read out of `metadata`. */
export interface LiveObject {
  readonly kind: KindName;
  readonly id: string;
  /** The parent's id for children (a route's edge, a rule's policy). */
  readonly parentId?: string;
  /** The record exactly as listed. */
  readonly record: Readonly<Record<string, unknown>>;
  /** Absent on objects acctsync does not manage: those are only ever candidates for adoption. */
  readonly marker?: OwnershipMarker;
  /** The `metadata` the user wrote, the marker stripped. */
  readonly userMetadata: string;
}

/** A record's `metadata` split into the marker (when there is one) and the user's part. */
export function readMetadata(record: Readonly<Record<string, unknown>>): {
  readonly marker?: OwnershipMarker;
  readonly user: string;
} {
  return parseMetadata(typeof record.metadata === 'string' ? record.metadata : null);
}

/**
 * The parent a record names: `parentId` when it was listed inside its parent (a route in its
 * edge), else the id in its link field (a rule's `ip_policy`, a plain id or a `{id}` reference).
 */
function parentOf(d: KindDescriptor, record: Readonly<Record<string, unknown>>): string | undefined {
  const linked = d.parent?.via === 'field' ? record[d.parent.field] : undefined;
  const id = isPlainObject(linked) ? linked.id : linked;
  return typeof id === 'string' ? id : undefined;
}

/** Reads `record`, an object of kind `d` (listed inside the parent `parentId`, for embedded kinds). */
export function liveObject(
  d: KindDescriptor,
  record: Readonly<Record<string, unknown>>,
  parentId?: string,
): LiveObject {
  const { marker, user } = readMetadata(record);
  const parent = parentId ?? parentOf(d, record);
  return {
    kind: d.kind,
    id: String(record.id),
    ...(parent === undefined ? {} : { parentId: parent }),
    record,
    ...(marker === undefined ? {} : { marker }),
    userMetadata: user,
  };
}

/** Whether `o` carries the marker of `scope` with `key`. */
export function markedAs(o: LiveObject, scope: string, key: string): boolean {
  return o.marker?.scope === scope && o.marker.key === key;
}
