/**
 * The rule pass over each declared object: the descriptors' own validator (types, limits, formats,
 * cross-field rules: the same definitions the emulator answers with) plus the checks that need
 * more than one field's value to be parsed (a private key against its certificate).
 */
import { parseCidr, privateKeyMatchesCertificate } from '../resources/formats/index.js';
import { validateBody, type FieldPath } from '../resources/index.js';
import type { DeclaredObject } from './objects.js';
import type { FileFinding } from './source.js';

/** Findings about one object's values, in the files that wrote them. */
export function checkObject(o: DeclaredObject): FileFinding[] {
  const out: FileFinding[] = validateBody(o.fields, o.descriptor.rules, o.values, 'desired').map((v) => ({
    ...o.place(v.path),
    message: v.message,
    ...(v.message.startsWith('unknown field') || v.message.includes('read-only') ? { atKey: true } : {}),
  }));
  if (out.length > 0) return out;
  return [...keyMatchesCertificate(o), ...cidrHostBits(o)];
}

function keyMatchesCertificate(o: DeclaredObject): FileFinding[] {
  const { certificate_pem: cert, private_key_pem: key } = o.values;
  if (typeof cert !== 'string' || typeof key !== 'string') return [];
  if (privateKeyMatchesCertificate(key, cert)) return [];
  return [
    {
      ...o.place(['private_key_pem']),
      message: 'the private key does not belong to the certificate (the first certificate of the chain)',
      hint: 'check that certificate_pem and private_key_pem come from the same key pair',
    },
  ];
}

function cidrHostBits(o: DeclaredObject): FileFinding[] {
  const path: FieldPath = ['cidr'];
  const value = o.values.cidr;
  if (typeof value !== 'string') return [];
  const cidr = parseCidr(value);
  if (!cidr.ok || !cidr.value.hostBitsSet) return [];
  return [
    {
      severity: 'warning',
      ...o.place(path),
      message: `${value} has bits set beyond its /${cidr.value.prefix} prefix`,
      hint: 'the rule is kept as written; write the network address if that is what you meant',
    },
  ];
}
