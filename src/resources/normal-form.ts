/**
 * The normal form of each value format: the one form in which two values the service treats as the
 * same are equal. The planner compares both sides of a diff in it, the applier checks what the
 * service kept in it, and the emulator keys its unique values by it; the spec and the vendor's
 * examples decide what the service treats as the same (docs/emulator.md, "How it answers").
 */
import { parseCidr, parseSshPublicKey, readPemBlocks } from './formats/index.js';
import type { Field, FieldType, FormatName } from './types.js';

type NormalForm = (value: string) => string;

/**
 * PEM by its decoded content, not its text: the service adds a trailing newline and may wrap the
 * base64 otherwise; the labels and the bytes of each block, in order, are what it keeps.
 */
function pemContent(value: string): string {
  const blocks = readPemBlocks(value);
  if (!blocks.ok) return value;
  return blocks.value.map((b) => `${b.label}:${b.headers.join(',')}:${b.der.toString('base64')}`).join('\n');
}

/** A serial number as an integer in lower-case hex: the service pads it to whole bytes (`054ba7`). */
function serialNumber(value: string): string {
  return value.toLowerCase().replace(/^0+(?=.)/, '');
}

const normalForms: { readonly [F in FormatName]?: NormalForm } = {
  cidr: (v) => {
    const cidr = parseCidr(v);
    return cidr.ok ? cidr.value.canonical : v;
  },
  // One key whatever its form (PEM or OpenSSH line) or comment: the service's identity.
  'ssh-public-key': (v) => {
    const key = parseSshPublicKey(v);
    return key.ok ? key.value.identity : v;
  },
  'pem-certificate': pemContent,
  'pem-certificate-chain': pemContent,
  'pem-private-key': pemContent,
  'serial-number': serialNumber,
};

/** A string of `type` in its normal form; any other value as it is. */
export function normalString(type: FieldType, value: unknown): unknown {
  if (type.type !== 'string' || typeof value !== 'string' || type.format === undefined) return value;
  const form = normalForms[type.format];
  return form === undefined ? value : form(value);
}

/**
 * Fields acctsync sends even when the config leaves them out, so that what the plan showed is what
 * the service stores: a setting (a boolean or an enum) with a default of acctsync's, which the
 * service's own default (documented or not) must never decide. A member the service fills or
 * ignores is left to it.
 */
export function sentExplicitly(f: Field): boolean {
  return (
    f.default !== undefined &&
    f.default !== null &&
    (f.type.type === 'boolean' || f.type.type === 'enum') &&
    (f.write === 'mutable' || f.write === 'immutable') &&
    f.serverFilled === undefined &&
    f.serviceIgnores === undefined
  );
}
