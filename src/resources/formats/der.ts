/**
 * A minimal reader of DER (ITU-T X.690), just enough to walk a certificate to its extensions. Every
 * function returns undefined on malformed input instead of throwing: certificates come from users.
 * Only low tag numbers (< 31) and definite lengths are supported; DER never needs more for X.509.
 */

/** One tag-length-value element. */
export interface DerElement {
  /** The identifier octet: class, constructed bit and tag number, e.g. 0x30 for SEQUENCE. */
  readonly tag: number;
  /** The value octets (a view into the input, not a copy). */
  readonly contents: Uint8Array;
  /** Offset just past this element in the input it was read from. */
  readonly end: number;
}

/** Identifier octets used by X.509. */
export const DerTag = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  objectIdentifier: 0x06,
  sequence: 0x30,
} as const;

/** Reads the element starting at `offset`, or undefined when it is malformed or runs past the end. */
export function readDerElement(bytes: Uint8Array, offset = 0): DerElement | undefined {
  const tag = bytes[offset];
  const first = bytes[offset + 1];
  if (tag === undefined || first === undefined || (tag & 0x1f) === 0x1f) return undefined;

  let length = first;
  let start = offset + 2;
  if (first & 0x80) {
    const lengthBytes = first & 0x7f;
    // 0x80 is BER's indefinite length, which DER forbids; over 4 bytes would exceed any real certificate.
    if (lengthBytes === 0 || lengthBytes > 4) return undefined;
    length = 0;
    for (let i = 0; i < lengthBytes; i++) {
      const byte = bytes[start + i];
      if (byte === undefined) return undefined;
      length = length * 256 + byte;
    }
    start += lengthBytes;
  }
  const end = start + length;
  if (end > bytes.length) return undefined;
  return { tag, contents: bytes.subarray(start, end), end };
}

/** The elements that make up `contents` exactly, or undefined when they do not fill it. */
export function readDerChildren(contents: Uint8Array): DerElement[] | undefined {
  const children: DerElement[] = [];
  let offset = 0;
  while (offset < contents.length) {
    const child = readDerElement(contents, offset);
    if (child === undefined) return undefined;
    children.push(child);
    offset = child.end;
  }
  return children;
}

/** The dotted text of an OBJECT IDENTIFIER's contents (`2.5.29.15`), or undefined when malformed. */
export function decodeOid(contents: Uint8Array): string | undefined {
  const arcs: number[] = [];
  let arc = 0;
  for (const [i, byte] of contents.entries()) {
    // A leading 0x80 would be a non-minimal encoding; the guard keeps arcs exact as JS numbers.
    if ((arc === 0 && byte === 0x80) || arc > Number.MAX_SAFE_INTEGER / 128) return undefined;
    arc = arc * 128 + (byte & 0x7f);
    if (byte & 0x80) {
      if (i === contents.length - 1) return undefined;
      continue;
    }
    if (arcs.length === 0) {
      // The first subidentifier packs the first two arcs: 40 * first + second, first in 0..2.
      const first = Math.min(2, Math.floor(arc / 40));
      arcs.push(first, arc - 40 * first);
    } else {
      arcs.push(arc);
    }
    arc = 0;
  }
  return arcs.length === 0 ? undefined : arcs.join('.');
}
