/**
 * Both sides of a diff in the same shape: what the service would hold after creating the desired
 * object (defaults filled, references mapped to live ids), and what it holds now (writable members,
 * `Ref`s as ids, the ownership marker stripped from `metadata`). Write-only members are left out of
 * both (they are compared through hashes) and so are server-filled ones the config leaves unset.
 */
import {
  mapReferences,
  mapValue,
  serverFills,
  withDefaults,
  withExplicitDefaults,
  writableValues,
  type DesiredObject,
  type Fields,
  type KindDescriptor,
  type RefTarget,
  type ValueMapper,
} from '../resources/index.js';
import { canonicalMetadata, canonicalValues } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';

type Plain = Record<string, unknown>;

/** Maps a desired reference (a key or a raw id) to the live id it stands for, or leaves it as is. */
export type ResolveRef = (ref: string, target: RefTarget) => string;

/** Drops write-only members at any depth. */
function withoutWriteOnly(fields: Fields, values: Plain): Plain {
  const out: Plain = {};
  for (const [name, value] of Object.entries(values)) {
    const f = fields[name];
    if (f?.writeOnly) continue;
    out[name] = f === undefined ? value : mapValue(f.type, value, writeOnlyDropped);
  }
  return out;
}

const writeOnlyDropped: ValueMapper = { object: (nested, value) => withoutWriteOnly(nested.fields, value) };

/**
 * Drops server-filled members the desired object leaves unset: whatever the service chose is fine.
 * A conditionally server-filled member stays when its condition does not hold for the desired
 * object: unset then means the default, and the plan unsets what the live object holds.
 */
function withoutUnsetServerFilled(d: KindDescriptor, desired: DesiredObject, values: Plain): Plain {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([name]) => !(serverFills(d.fields[name], desired.fields) && !(name in desired.fields)),
    ),
  );
}

/**
 * The desired values with references as resolved, as plain values, with the defaults acctsync sends
 * explicitly (and shows): what a create sends.
 */
export function resolvedFields(d: KindDescriptor, desired: DesiredObject, resolve: ResolveRef): Plain {
  return withExplicitDefaults(d.fields, mapReferences(d.fields, { ...desired.fields }, resolve));
}

/** The desired object as the service would hold it, in canonical form. */
export function normalizeDesired(d: KindDescriptor, desired: DesiredObject, resolve: ResolveRef): Plain {
  const values = withDefaults(d.fields, resolvedFields(d, desired, resolve));
  if (typeof values.metadata === 'string') values.metadata = canonicalMetadata(values.metadata);
  return canonicalValues(d.fields, withoutUnsetServerFilled(d, desired, withoutWriteOnly(d.fields, values)));
}

/**
 * The live object in the same shape as {@link normalizeDesired} gives for `desired`. A member the
 * answer leaves out holds its default (the service omits an empty `description`).
 */
export function normalizeLive(d: KindDescriptor, live: LiveObject, desired?: DesiredObject): Plain {
  const values = withDefaults(d.fields, writableValues(d.fields, { ...live.record }));
  if ('metadata' in d.fields) values.metadata = canonicalMetadata(live.userMetadata);
  const comparable = withoutWriteOnly(d.fields, values);
  return canonicalValues(d.fields, desired ? withoutUnsetServerFilled(d, desired, comparable) : comparable);
}
