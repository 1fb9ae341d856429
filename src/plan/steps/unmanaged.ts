/**
 * The live objects nobody manages (no scope's marker, no entry observing or adopting them): a
 * domain reserved by hand, a policy made in the dashboard. The plan lists them so a review and the
 * daily drift job see them, and says how to adopt them.
 */
import { compare } from '../../compare.js';
import type { LiveObject } from '../../live/index.js';
import { descriptorOf, type KindDescriptor } from '../../resources/index.js';
import type { UnmanagedObject } from '../../plan-format/index.js';

/** Natural keys that read as a name (a domain, hostports, a CIDR), not a PEM or a key blob. */
function readableKey(d: KindDescriptor): readonly string[] | undefined {
  const fields = d.naturalKey?.fields;
  const readable = fields?.every((name) => {
    const type = d.fields[name]?.type;
    const item = type?.type === 'list' ? type.items : type;
    return (
      item?.type === 'string' &&
      !['pem-certificate', 'pem-certificate-chain', 'ssh-public-key'].includes(item.format ?? '')
    );
  });
  return readable === true ? fields : undefined;
}

/** Its natural key as written, else its description. */
function nameOf(l: LiveObject): string | undefined {
  const d = descriptorOf(l.kind);
  const key = readableKey(d)?.map((name) => {
    const value = l.record[name];
    return Array.isArray(value) ? value.map(String).join(',') : typeof value === 'string' ? value : '';
  });
  if (key !== undefined && key.every((part) => part !== '')) return key.join(':');
  const description = l.record.description;
  return typeof description === 'string' && description !== '' ? description : undefined;
}

export function unmanagedObjects(unmanaged: readonly LiveObject[]): UnmanagedObject[] {
  return [...unmanaged]
    .sort((a, b) => compare(a.kind, b.kind) || compare(a.id, b.id))
    .map((l) => {
      const name = nameOf(l);
      return {
        kind: l.kind,
        id: l.id,
        ...(name === undefined ? {} : { name }),
        ...(l.parentId === undefined ? {} : { parentId: l.parentId }),
      };
    });
}
