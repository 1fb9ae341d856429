import { describe, expect, it } from 'vitest';

import { decodeOid, readDerChildren, readDerElement } from '../../../src/resources/formats/der.js';

describe('readDerElement', () => {
  it('reads short and long lengths', () => {
    expect(readDerElement(Uint8Array.of(0x04, 0x02, 0xaa, 0xbb))).toEqual({
      tag: 0x04,
      contents: Uint8Array.of(0xaa, 0xbb),
      end: 4,
    });
    const long = Uint8Array.from([0x04, 0x81, 0x80, ...new Uint8Array(0x80)]);
    expect(readDerElement(long)).toMatchObject({ tag: 0x04, end: 0x83 });
    expect(readDerElement(long)?.contents.length).toBe(0x80);
  });

  it('reads at an offset', () => {
    expect(readDerElement(Uint8Array.of(0xff, 0x05, 0x00), 1)).toMatchObject({ tag: 0x05, end: 3 });
  });

  it.each([
    ['empty input', []],
    ['a tag without a length', [0x30]],
    ['contents running past the end', [0x04, 0x03, 0x00]],
    ['an indefinite length', [0x30, 0x80, 0x00, 0x00]],
    ['a length of more than 4 bytes', [0x04, 0x85, 0, 0, 0, 0, 1, 0]],
    ['a truncated long length', [0x04, 0x82, 0x01]],
    ['a high tag number', [0x1f, 0x81, 0x01, 0x00]],
  ])('rejects %s', (_, bytes) => {
    expect(readDerElement(Uint8Array.from(bytes))).toBeUndefined();
  });
});

describe('readDerChildren', () => {
  it('splits contents into elements', () => {
    const children = readDerChildren(Uint8Array.of(0x02, 0x01, 0x05, 0x05, 0x00));
    expect(children?.map((child) => child.tag)).toEqual([0x02, 0x05]);
  });
  it('accepts empty contents', () => expect(readDerChildren(new Uint8Array())).toEqual([]));
  it('rejects trailing bytes that are not an element', () => {
    expect(readDerChildren(Uint8Array.of(0x02, 0x01, 0x05, 0x02))).toBeUndefined();
  });
});

describe('decodeOid', () => {
  it.each([
    [[0x55, 0x1d, 0x0f], '2.5.29.15'],
    [[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01], '1.3.6.1.5.5.7.3.1'],
    [[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01], '1.2.840.113549.1.1.1'],
    [[0x00], '0.0'],
    [[0x88, 0x37], '2.999'],
  ])('%j -> %s', (bytes, oid) => {
    expect(decodeOid(Uint8Array.from(bytes))).toBe(oid);
  });

  it.each([
    ['empty', []],
    ['a truncated arc', [0x55, 0x86]],
    ['a non-minimal arc', [0x55, 0x80, 0x01]],
    ['an arc too large for exact numbers', [0x55, ...new Array<number>(10).fill(0xff), 0x7f]],
  ])('rejects %s', (_, bytes) => {
    expect(decodeOid(Uint8Array.from(bytes))).toBeUndefined();
  });
});
