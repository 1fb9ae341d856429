/**
 * The IPv4 and IPv6 grammars are written out rather than taken from `node:net` (whose regular
 * expressions cost a command's start): they must accept exactly what `node:net` accepts, zone
 * identifiers aside, which a rule rejects.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isIPv4, isIPv6 } from '../../../src/resources/formats/index.js';

const written = [
  '',
  '0.0.0.0',
  '255.255.255.255',
  '256.1.1.1',
  '01.2.3.4',
  '1.2.3',
  '1.2.3.4.5',
  '1.2.3.4 ',
  ' 1.2.3.4',
  '1..3.4',
  '١.2.3.4',
  '::',
  '::1',
  '1::',
  ':::',
  '1:::2',
  '::1::',
  '1:2:3:4:5:6:7:8',
  '1:2:3:4:5:6:7:8:9',
  '1:2:3:4:5:6:7::',
  '1:2:3:4:5:6:7:8::',
  '::2:3:4:5:6:7:8',
  '::1:2:3:4:5:6:7:8',
  '1::2:3:4:5:6:7',
  '1::2:3:4:5:6:7:8',
  ':1:2:3:4:5:6:7',
  '1:2:3:4:5:6:7:',
  '2001:DB8::ABCD',
  '2001:db8:1234::/48',
  '12345::',
  'g::',
  '::ffff:192.0.2.1',
  '::ffff:192.0.2.01',
  '::192.0.2.1',
  '1:2:3:4:5:6:1.2.3.4',
  '1:2:3:4:5:6:7:1.2.3.4',
  '1:2:3:4:5::1.2.3.4',
  '1:2:3:4:5:6::1.2.3.4',
  '1.2.3.4::',
  '1.2.3.4::1',
  '::1.2.3.4:1',
  '1::1.2.3',
  '\u0010::',
  '::\u0010',
  'fe80::1%eth0',
];

/** A deterministic stream of strings made of the characters addresses are made of. */
function* generated(count: number): Generator<string> {
  const alphabet = '0123456789abcdefABCDEFg:::..%';
  let seed = 33;
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  for (let i = 0; i < count; i++) {
    let s = '';
    const length = next(40);
    for (let j = 0; j < length; j++) s += alphabet[next(alphabet.length)];
    yield s;
  }
}

/** Valid addresses, then each with one character changed, dropped or doubled. */
function* mutated(): Generator<string> {
  const valid = ['1:2:3:4:5:6:7:8', '::ffff:10.0.0.1', 'fe80::1:2', '2001:db8::', '10.20.30.40', '::'];
  for (const address of valid) {
    for (let i = 0; i <= address.length; i++) {
      for (const c of ['0', 'f', ':', '.', '']) {
        yield address.slice(0, i) + c + address.slice(i + 1);
        yield address.slice(0, i) + c + address.slice(i);
      }
    }
  }
}

describe('IP address grammars', () => {
  const inputs = [...written, ...generated(20_000), ...mutated()];

  it('accept what node:net accepts', () => {
    const v4 = inputs.filter((s) => isIPv4(s) !== net.isIPv4(s));
    const v6 = inputs.filter((s) => !s.includes('%') && isIPv6(s) !== net.isIPv6(s));
    expect({ v4, v6 }).toEqual({ v4: [], v6: [] });
    expect(inputs.filter((s) => net.isIPv6(s)).length).toBeGreaterThan(100);
    expect(inputs.filter((s) => net.isIPv4(s)).length).toBeGreaterThan(10);
  });

  it('reject zone identifiers', () => {
    expect(net.isIPv6('fe80::1%eth0')).toBe(true);
    expect(isIPv6('fe80::1%eth0')).toBe(false);
  });
});
