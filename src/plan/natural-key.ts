/**
 * The real-world identity of an object, for adoption: the descriptor's natural key in a form that
 * ignores spelling (canonical CIDR, certificate fingerprint, SSH key identity without its comment,
 * case-insensitive host names, hostports in any order). Kinds without a natural key are identified
 * by their description, and only a non-empty one.
 */
import { parseCidr, parsePemCertificates, parseSshPublicKey } from '../resources/formats/index.js';
import type { FieldType, KindDescriptor } from '../resources/index.js';

function identityOf(type: FieldType, value: unknown): string | undefined {
  if (Array.isArray(value) && type.type === 'list') {
    const items = value.map((v) => identityOf(type.items, v));
    return items.every((i) => i !== undefined) ? JSON.stringify(items.sort()) : undefined;
  }
  if (typeof value !== 'string' || value === '') return undefined;
  if (type.type !== 'string') return value;
  switch (type.format) {
    case 'cidr': {
      const cidr = parseCidr(value);
      return cidr.ok ? cidr.value.canonical : value;
    }
    case 'pem-certificate':
    case 'pem-certificate-chain': {
      const certs = parsePemCertificates(value);
      return certs.ok ? certs.value[0]?.fingerprintSha256 : undefined;
    }
    case 'ssh-public-key': {
      const key = parseSshPublicKey(value);
      return key.ok ? key.value.identity : value;
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
