/**
 * The `metadata` value acctsync writes (the user's metadata with this scope's ownership marker) and
 * whether it fits the service's limit: shared by the planner and by `validate`, which knows the
 * scope and the key offline and so can refuse what `sync` would.
 */
import { byteLength, charLength } from '../formats/index.js';
import type { KindDescriptor } from '../types.js';
import {
  derivedSalt,
  formatMetadata,
  hashSecret,
  type OwnershipMarker,
  type SecretHasher,
} from './marker.js';
import { writeOnlyHashes, writeOnlyValues } from './secret-fields.js';

function metadataLimit(d: KindDescriptor): { limit: number; measure: (s: string) => number; unit: string } {
  const type = d.fields.metadata?.type;
  if (type?.type === 'string' && type.maxChars !== undefined)
    return { limit: type.maxChars, measure: charLength, unit: 'characters' };
  const limit = type?.type === 'string' && type.maxBytes !== undefined ? type.maxBytes : Infinity;
  return { limit, measure: byteLength, unit: 'bytes' };
}

export interface MarkedMetadata {
  readonly value: string;
  /** Why the value does not fit its limit, when it does not. */
  readonly tooLong?: string;
  /** Whether the user's part alone fits (else the schema check already said so). */
  readonly userFits: boolean;
}

/** What the marker carries besides scope and key. */
interface MarkerState {
  /** The live marker's salt, kept when there is one (a new salt has the same length). */
  readonly salt?: string | undefined;
  /**
   * What a new salt is derived from besides scope and key (the planner passes its live
   * fingerprint); a size check offline needs none.
   */
  readonly saltInput?: (() => string) | undefined;
  /** Whether the object is protected (sticky: see the planner). */
  readonly protect: boolean;
  /** Hashes the secrets: a plan shares one cache (scrypt is slow on purpose); `hashSecret` when absent. */
  readonly hash?: SecretHasher | undefined;
  /**
   * Stored hashes kept as they are while they still match their value: a hash in an earlier
   * format is then not rewritten on its own (the planner passes them unless the object is written).
   */
  readonly kept?: Readonly<Record<string, string>> | undefined;
  /** The fingerprint of the state written (`writtenFingerprint`), or the live marker's when the object is not written. */
  readonly written?: string | undefined;
}

/** The metadata to write for the object `key` with desired `fields`. */
export function markedMetadata(
  d: KindDescriptor,
  key: string,
  fields: Readonly<Record<string, unknown>>,
  scope: string,
  state: MarkerState,
): MarkedMetadata {
  const secrets = writeOnlyValues(d.fields, fields);
  const salt =
    secrets.length === 0 ? undefined : (state.salt ?? derivedSalt(state.saltInput?.() ?? '', scope, key));
  const marker: OwnershipMarker = {
    scope,
    key,
    ...(salt === undefined
      ? {}
      : { salt, hashes: writeOnlyHashes(salt, secrets, state.hash ?? hashSecret, state.kept) }),
    ...(state.protect ? { protect: true as const } : {}),
    ...(state.written === undefined ? {} : { written: state.written }),
  };
  const user = typeof fields.metadata === 'string' ? fields.metadata : '';
  const value = formatMetadata(user, marker);
  const { limit, measure, unit } = metadataLimit(d);
  const size = measure(value);
  const userFits = measure(user) <= limit;
  if (size <= limit) return { value, userFits };
  return {
    value,
    userFits,
    tooLong: `metadata is ${size} ${unit} with the ownership marker (${size - measure(user)} of them), over the ${limit}-${unit.replace(/s$/, '')} limit: shorten it by ${size - limit}`,
  };
}
