/** Field builders shared by many descriptors, so a limit written in the spec is written here once. */
import { ErrorCode } from './error-codes.js';
import type { Field, FieldType, Fields, KindName, RefTarget, Writability } from './types.js';

const uint32Max = 4_294_967_295;
const int32 = { min: -2_147_483_648, max: 2_147_483_647 };
const int64 = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

export const regions = ['au', 'eu', 'ap', 'us', 'jp', 'in', 'sa'] as const;

export const t = {
  string: (extra: Omit<Extract<FieldType, { type: 'string' }>, 'type'> = {}): FieldType => ({
    type: 'string',
    ...extra,
  }),
  boolean: (): FieldType => ({ type: 'boolean' }),
  uint32: (max = uint32Max): FieldType => ({ type: 'integer', min: 0, max }),
  int32: (): FieldType => ({ type: 'integer', ...int32 }),
  int64: (min = int64.min, max = int64.max): FieldType => ({ type: 'integer', min, max }),
  enumOf: (values: readonly string[]): FieldType => ({ type: 'enum', values }),
  list: (items: FieldType, ordered = false): FieldType => ({ type: 'list', items, ordered }),
  map: (values: FieldType, keyRef?: RefTarget): FieldType =>
    keyRef ? { type: 'map', values, keyRef } : { type: 'map', values },
  object: (fields: Fields, rules: Extract<FieldType, { type: 'object' }>['rules'] = []): FieldType => ({
    type: 'object',
    fields,
    rules,
  }),
  json: (): FieldType => ({ type: 'json' }),
};

/** A field definition; `write` defaults to `mutable`. */
export function field(type: FieldType, description: string, extra: Partial<Omit<Field, 'type'>> = {}): Field {
  return { type, description, write: 'mutable', ...extra };
}

export function readOnly(
  type: FieldType,
  description: string,
  extra: Partial<Omit<Field, 'type'>> = {},
): Field {
  return field(type, description, { ...extra, write: 'read-only' });
}

/** Targets referenced by `Ref` objects. */
export function refTo(...kinds: KindName[]): RefTarget {
  return { kinds, readShape: 'ref' };
}

/** Targets referenced by bare ids. */
export function idOf(...kinds: KindName[]): RefTarget {
  return { kinds, readShape: 'id' };
}

/**
 * A reference field, written by id under `writeAs`: a single one is null when unset, a list is
 * empty when unset.
 */
function reference(many: boolean) {
  return (
    target: RefTarget,
    writeAs: string,
    description: string,
    write: Writability = 'mutable',
    extra: Partial<Omit<Field, 'type'>> = {},
  ): Field =>
    field({ type: 'ref', target, many }, description, {
      writeAs,
      write,
      ...(many ? { default: [] } : { nullable: true }),
      ...extra,
    });
}

export const ref = reference(false);
export const refs = reference(true);

/** The kinds a backend reference may name: every `*_backends` kind. */
type BackendKind = Extract<KindName, `${string}_backends`>;

/** Keyed by kind so that the compiler refuses a backend kind missing here. */
const isBackend: Readonly<Record<BackendKind, true>> = {
  http_response_backends: true,
  failover_backends: true,
  tunnel_group_backends: true,
  weighted_backends: true,
};

export const backendKinds = Object.keys(isBackend) as BackendKind[];

/** `description`, limited in bytes for most kinds and in characters for event subscriptions. */
export function description(limit: 'bytes' | 'chars' | 'none' = 'bytes'): Field {
  const type =
    limit === 'bytes'
      ? t.string({ maxBytes: 255, tooLongCode: ErrorCode.descriptionTooLong })
      : limit === 'chars'
        ? t.string({ maxChars: 255, tooLongCode: ErrorCode.descriptionTooLong })
        : t.string();
  return field(type, 'Free text describing the object.', { default: '', omittedWhenEmpty: true });
}

/** `metadata`: arbitrary user data; acctsync stores its ownership marker in it. */
export function metadata(limit: 'bytes' | 'chars' = 'bytes'): Field {
  const type =
    limit === 'bytes'
      ? t.string({ maxBytes: 4096, tooLongCode: ErrorCode.metadataTooLong })
      : t.string({ maxChars: 4096, tooLongCode: ErrorCode.metadataTooLong });
  return field(type, 'Arbitrary user data, often serialized JSON.', {
    default: '',
    omittedWhenEmpty: true,
  });
}

export const describable = (limit: 'bytes' | 'chars' | 'none' = 'bytes'): Fields => ({
  description: description(limit),
  metadata: metadata(limit === 'chars' ? 'chars' : 'bytes'),
});

export const enabled: Field = field(t.boolean(), 'Whether the module is applied to traffic.', {
  default: true,
});

export const ownerId: Field = field(
  t.string({ minLength: 1 }),
  'User or Bot that owns the object; defaults to the caller. Only admins may name another owner.',
  { write: 'immutable', serverFilled: true },
);

export const certPolicy: Field = field(
  t.object({
    authority: field(t.enumOf(['public_acme_ca']), 'Certificate authority issuing the certificates.', {
      default: 'public_acme_ca',
    }),
    private_key_type: field(t.enumOf(['rsa', 'ecdsa']), 'Type of the private key.', { default: 'rsa' }),
  }),
  'Automatic certificate management; null when disabled.',
  { nullable: true, default: null },
);

export const certStatus: Field = readOnly(
  t.object({
    renews_at: readOnly(t.string(), 'When the next renewal is requested.', { nullable: true }),
    provisioning_job: readOnly(
      t.object({
        error_code: readOnly(t.string(), 'INTERNAL_ERROR (temporary) or DNS_ERROR (permanent).', {
          nullable: true,
        }),
        msg: readOnly(t.string(), 'What the job is doing or why it failed.'),
        started_at: readOnly(t.string(), 'When the job started.'),
        retries_at: readOnly(t.string(), 'When the job retries.', { nullable: true }),
      }),
      'Certificate provisioning in progress, or null.',
      { nullable: true },
    ),
  }),
  'Status of automatic certificate management; null when disabled.',
  { nullable: true, default: null },
);

/** Members the service fills in from an uploaded PEM. */
export const pemDerivedFields: Fields = {
  subject_common_name: readOnly(t.string(), 'Subject common name.'),
  not_before: readOnly(t.string(), 'Start of validity (RFC 3339).'),
  not_after: readOnly(t.string(), 'End of validity (RFC 3339).'),
  key_usages: readOnly(t.list(t.string()), 'Key usages.'),
  extended_key_usages: readOnly(t.list(t.string()), 'Extended key usages.'),
};

export const aclField: Field = field(
  t.list(t.string({ format: 'ssh-acl-rule' })),
  'Bind rules (`bind:<domain>`, `bind:*.<suffix>`, `bind:<key>=<value>`, `*`); empty means no restriction.',
  { default: [] },
);

export const tokenField: Field = readOnly(
  t.string(),
  'Bearer token; present only in the response that creates the object.',
  { nullable: true, secret: true, default: null },
);
