/**
 * The rule pass over each declared object: the descriptors' own validator (types, limits, formats,
 * cross-field rules, a private key against its certificate included: the same definitions the
 * emulator answers with) plus the warnings only the loader gives.
 */
import { parseCidr } from '../resources/formats/index.js';
import { validateBody, type FieldPath } from '../resources/index.js';
import type { DeclaredObject } from './objects.js';
import type { FileFinding } from './source.js';

/** Findings about one object's values, in the files that wrote them. */
export function checkObject(o: DeclaredObject): FileFinding[] {
  const out: FileFinding[] = validateBody(o.fields, o.descriptor.rules, o.values, 'desired').map((v) => ({
    ...o.place(v.path),
    message: v.message,
    ...(v.hint === undefined ? {} : { hint: v.hint }),
    ...(v.offset === undefined ? {} : { offset: v.offset }),
    ...(v.message.startsWith('unknown field') || v.message.includes('read-only') ? { atKey: true } : {}),
  }));
  if (out.length > 0) return out;
  return cidrHostBits(o);
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
