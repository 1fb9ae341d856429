/**
 * The one owner of natural-key identity: what makes two objects the same real-world thing (for
 * adoption and replaces), the name a nested object takes in the config, and the claims an object
 * holds on values the service keeps unique (its 409s). Spelling never matters: CIDRs compare in
 * canonical form, certificates by fingerprint, SSH keys by identity without their comment, host
 * names case-insensitively, hostports as a set.
 */
import { compare } from '../compare.js';
import { errorCodeString } from './error-codes.js';
import { parsePemCertificates } from './formats/index.js';
import { normalString } from './normal-form.js';
import type { FieldType, KindDescriptor } from './types.js';

/** The canonical form of one value of `type`, or undefined when it identifies nothing. */
function identityOf(type: FieldType, value: unknown): string | undefined {
  if (Array.isArray(value) && type.type === 'list') {
    const items = value.map((v) => identityOf(type.items, v));
    return items.every((i) => i !== undefined) ? JSON.stringify(items.sort(compare)) : undefined;
  }
  if (typeof value !== 'string' || value === '') return undefined;
  if (type.type !== 'string') return value;
  switch (type.format) {
    case 'cidr':
    case 'ssh-public-key':
      return normalString(type, value) as string;
    case 'pem-certificate':
    case 'pem-certificate-chain': {
      const certs = parsePemCertificates(value);
      return certs.ok ? certs.value[0]?.fingerprintSha256 : undefined;
    }
    case 'hostname':
    case 'domain':
    case 'hostport':
      return value.toLowerCase();
    default:
      return value;
  }
}

/**
 * The identity of an object with plain `values` (response names, references as ids), or undefined
 * when it has none worth matching on. `parentId` scopes keys that are unique within a parent only.
 * Kinds without a natural key are identified by their description, and only a non-empty one.
 */
export function naturalIdentity(
  d: KindDescriptor,
  values: Readonly<Record<string, unknown>>,
  parentId: string | undefined,
): string | undefined {
  const names = d.naturalKey?.fields ?? ['description'];
  const parts = names.map((name) => {
    const f = d.fields[name];
    return f === undefined ? undefined : identityOf(f.type, values[name]);
  });
  if (parts.some((p) => p === undefined)) return undefined;
  if (d.naturalKey?.perParent && parentId === undefined) return undefined;
  return JSON.stringify([d.kind, d.naturalKey?.perParent ? parentId : null, ...parts]);
}

/**
 * A nested object's name within its parent: its natural key joined with `:` (a rule's canonical
 * CIDR, a route's `<match_type>:<match>`), or `#<index>` when a part is missing.
 */
export function naturalName(
  d: KindDescriptor,
  values: Readonly<Record<string, unknown>>,
  index: number,
): string {
  const parts = (d.naturalKey?.fields ?? []).map((name) => {
    const value = values[name];
    if (typeof value !== 'string') return undefined;
    const f = d.fields[name];
    // Only CIDRs are respelled: other names keep the case the user wrote, as they always have.
    return f?.type.type === 'string' && f.type.format === 'cidr' ? identityOf(f.type, value) : value;
  });
  return parts.length > 0 && parts.every((p) => p !== undefined) ? parts.join(':') : `#${index}`;
}

/**
 * The values the service refuses to let two objects hold at once, as keys comparable across kinds
 * that share a claim space (TLS and HTTPS edges share hostports). A list-valued key (hostports)
 * claims each element. `parentId` scopes kinds unique within their parent (a rule's CIDR within its
 * policy, a route's match within its edge); without it such a kind claims nothing.
 */
export function claimKeys(
  d: KindDescriptor,
  values: Readonly<Record<string, unknown>>,
  parentId: string | undefined,
): string[] {
  const natural = d.naturalKey;
  const claim = natural?.claim;
  if (natural === undefined || claim === undefined) return [];
  if (natural.perParent && parentId === undefined) return [];
  const space = `${claim.space}|${natural.perParent ? parentId : ''}|`;
  if (natural.fields.length === 1) {
    const name = natural.fields[0] ?? '';
    const f = d.fields[name];
    if (f === undefined) return [];
    const value = values[name];
    const items = Array.isArray(value) && f.type.type === 'list' ? value : [value];
    const type = f.type.type === 'list' ? f.type.items : f.type;
    return items.flatMap((v) => {
      const id = identityOf(type, v);
      return id === undefined ? [] : [space + id];
    });
  }
  const parts = natural.fields.map((name) => {
    const f = d.fields[name];
    return f === undefined ? undefined : identityOf(f.type, values[name]);
  });
  return parts.some((p) => p === undefined) ? [] : [space + JSON.stringify(parts)];
}

/** The parent id that scopes a kind's claims, from stored or live values (`edge_id`, `ip_policy`). */
export function claimScope(d: KindDescriptor, values: Readonly<Record<string, unknown>>): string | undefined {
  const field = d.parent?.field;
  const value = field === undefined ? undefined : values[field];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The error code the service refuses a create of `d` with when a unique value it claims is held
 * already: by an object another writer created at the same moment (the applier finds it by its
 * marker and keeps it), or by the lease key another holder registered.
 */
export function claimCode(d: KindDescriptor): string | undefined {
  const code = d.naturalKey?.claim?.code;
  return code === undefined ? undefined : errorCodeString(code);
}
