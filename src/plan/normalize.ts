/**
 * Both sides of a diff in the same shape: what the service would hold after creating the desired
 * object (defaults filled, references mapped to live ids), and what it holds now (writable members,
 * `Ref`s as ids, the ownership marker stripped from `metadata`). Write-only members are left out of
 * both (they are compared through hashes) and so are server-filled ones the config leaves unset.
 */
import {
  mapReferences,
  mapValue,
  filledWhileSet,
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
 * What the service filled in while a condition held goes with it (removing the policy removes the
 * issued certificate, gaps.md): to a config that drops the condition, the live object holds the
 * member's default, whether or not the service has filled it in yet. The plan is then the same
 * before and after the service does, as the live fingerprint, which leaves it out, is.
 */
function withServerFilledAsDefault(
  d: KindDescriptor,
  live: LiveObject,
  desired: DesiredObject,
  values: Plain,
): Plain {
  for (const name of Object.keys(values)) {
    const f = d.fields[name];
    if (f !== undefined && filledWhileSet(f, live.record) && !filledWhileSet(f, desired.fields))
      values[name] = f.default ?? null;
  }
  return values;
}

/**
 * The live object in the same shape as {@link normalizeDesired} gives for `desired`. A member the
 * answer leaves out holds its default (the service omits an empty `description`).
 */
export function normalizeLive(d: KindDescriptor, live: LiveObject, desired?: DesiredObject): Plain {
  const values = withDefaults(d.fields, writableValues(d.fields, { ...live.record }));
  if ('metadata' in d.fields) values.metadata = canonicalMetadata(live.userMetadata);
  const comparable = withoutWriteOnly(d.fields, values);
  return canonicalValues(
    d.fields,
    desired
      ? withServerFilledAsDefault(d, live, desired, withoutUnsetServerFilled(d, desired, comparable))
      : comparable,
  );
}
