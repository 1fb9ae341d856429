/**
 * The ownership marker acctsync keeps in an object's `metadata`: which scope manages the object,
 * under which logical key, and salted hashes of write-only values the API never returns.
 *
 * The user's own metadata round-trips unchanged in meaning: when it is a JSON object the marker is
 * one extra member of it (`"acctsync"`); any other string is kept verbatim as the marker's `text`.
 * Reading strips the marker and gives back exactly what the user wrote.
 */
import { createHash, scryptSync } from 'node:crypto';
import { isPlainObject } from '../../plain-object.js';

const markerMember = 'acctsync';
/** Member of the marker holding user metadata that is not a JSON object. */
const textMember = 'text';

export interface OwnershipMarker {
  /** The config's scope. */
  readonly scope: string;
  /** The desired object's logical key (`ip_policies/office`). */
  readonly key: string;
  /** Salt for `hashes`, one per object (`derivedSalt`). */
  readonly salt?: string;
  /** Salted hashes of write-only values, by dotted field path (`oidc.client_secret`). */
  readonly hashes?: Readonly<Record<string, string>>;
  /** `protect: true` was synced: no plan deletes or replaces the object (docs/apply.md "Protection"). */
  readonly protect?: true;
}

interface ParsedMetadata {
  readonly marker?: OwnershipMarker;
  /** The metadata as the user wrote it. */
  readonly user: string;
}

function asMarker(value: unknown): OwnershipMarker | undefined {
  if (!isPlainObject(value) || typeof value.scope !== 'string' || typeof value.key !== 'string')
    return undefined;
  const hashes = isPlainObject(value.hashes)
    ? Object.fromEntries(
        Object.entries(value.hashes).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : undefined;
  return {
    scope: value.scope,
    key: value.key,
    ...(typeof value.salt === 'string' ? { salt: value.salt } : {}),
    ...(hashes ? { hashes } : {}),
    ...(value.protect === true ? { protect: true as const } : {}),
  };
}

/** Splits live metadata into the marker (if any) and the user's own metadata. */
export function parseMetadata(metadata: string | null | undefined): ParsedMetadata {
  const text = metadata ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { user: text };
  }
  if (!isPlainObject(parsed) || !Object.hasOwn(parsed, markerMember)) return { user: text };
  const marker = asMarker(parsed[markerMember]);
  if (marker === undefined) return { user: text };
  const raw = parsed[markerMember] as Record<string, unknown>;
  if (typeof raw[textMember] === 'string') return { marker, user: raw[textMember] };
  const rest = Object.fromEntries(Object.entries(parsed).filter(([k]) => k !== markerMember));
  return { marker, user: Object.keys(rest).length === 0 ? '' : JSON.stringify(rest) };
}

/** Live metadata for `user` metadata carrying `marker`. Deterministic: same inputs, same string. */
export function formatMetadata(user: string, marker: OwnershipMarker): string {
  let base: Record<string, unknown> | undefined;
  if (user !== '') {
    try {
      const parsed: unknown = JSON.parse(user);
      if (isPlainObject(parsed) && !Object.hasOwn(parsed, markerMember) && JSON.stringify(parsed) === user)
        base = parsed;
    } catch {
      base = undefined;
    }
  }
  if (base !== undefined || user === '') return JSON.stringify({ ...base, [markerMember]: marker });
  return JSON.stringify({ [markerMember]: { ...marker, [textMember]: user } });
}

/**
 * The salt of a new object's hashes, derived from `parts` (the plan's live fingerprint, the scope
 * and the key): distinct per object and per account state, and the same for the same plan inputs,
 * so that a plan saved for review and the plan made again at apply time write the same marker.
 */
export function derivedSalt(...parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\0')).digest().subarray(0, 12).toString('base64url');
}

/**
 * scrypt's cost for the stored comparison value of a secret (docs/apply.md): N = 2^14, r = 8,
 * p = 1, 16 MiB and tens of milliseconds per guess, so a weak secret read back from the marker
 * (any API key of the account can) cannot be confirmed offline at hash speed.
 */
const secretHashCost = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/**
 * 168 bits: with its prefix a value is 31 characters, never longer than the 32 of the earlier hash,
 * so upgrading a marker cannot push metadata over the service's size limit.
 */
const secretHashBytes = 21;
/** Marks a scrypt value; a value without it is the earlier single salted SHA-256. */
const scryptPrefix = 's1.';

function secretText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The salted scrypt hash of a write-only value; the same salt and value always give the same hash. */
export function hashSecret(salt: string, value: unknown): string {
  const key = scryptSync(secretText(value), salt, secretHashBytes, secretHashCost);
  return `${scryptPrefix}${key.toString('base64url')}`;
}

/** The comparison value markers written before scrypt hold: kept readable so no secret looks changed. */
function legacyHashSecret(salt: string, value: unknown): string {
  return createHash('sha256')
    .update(salt)
    .update('\0')
    .update(secretText(value))
    .digest('base64url')
    .slice(0, 32);
}

/** Hashes secrets, each (salt, value) once: a plan compares and records the same value several times. */
export type SecretHasher = (salt: string, value: unknown) => string;

export function cachedSecretHasher(): SecretHasher {
  const cache = new Map<string, string>();
  return (salt, value) => {
    const id = `${salt}\0${secretText(value)}`;
    let hash = cache.get(id);
    if (hash === undefined) {
      hash = hashSecret(salt, value);
      cache.set(id, hash);
    }
    return hash;
  };
}

/** Whether a marker's stored `known` hash is of `value`, in the current format or the earlier one. */
export function secretMatches(hash: SecretHasher, salt: string, known: string, value: unknown): boolean {
  return known.startsWith(scryptPrefix)
    ? known === hash(salt, value)
    : known === legacyHashSecret(salt, value);
}
