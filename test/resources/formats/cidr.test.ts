import { describe, expect, it } from 'vitest';

import { isIPv4, isIPv6, parseCidr } from '../../../src/resources/formats/index.js';

describe('isIPv4 and isIPv6', () => {
  it.each(['192.0.2.1', '0.0.0.0', '255.255.255.255'])('%s is IPv4', (s) => {
    expect(isIPv4(s)).toBe(true);
    expect(isIPv6(s)).toBe(false);
  });
  it.each(['::', '::1', '2001:db8::1', '::ffff:192.0.2.1', 'FE80::1'])('%s is IPv6', (s) => {
    expect(isIPv6(s)).toBe(true);
    expect(isIPv4(s)).toBe(false);
  });
  it.each(['', '256.0.0.1', '01.2.3.4', '1.2.3', ' 1.2.3.4', 'fe80::1%eth0', '1::2::3', 'example.com'])(
    '%j is neither',
    (s) => {
      expect(isIPv4(s)).toBe(false);
      expect(isIPv6(s)).toBe(false);
    },
  );
});

describe('parseCidr', () => {
  it.each([
    ['10.0.0.0/8', 4, '10.0.0.0', 8, '10.0.0.0/8'],
    ['192.0.2.1', 4, '192.0.2.1', 32, '192.0.2.1/32'],
    ['0.0.0.0/0', 4, '0.0.0.0', 0, '0.0.0.0/0'],
    ['2001:DB8::/32', 6, '2001:db8::', 32, '2001:db8::/32'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', 6, '2001:db8::1', 128, '2001:db8::1/128'],
    ['::', 6, '::', 128, '::/128'],
    ['::/0', 6, '::', 0, '::/0'],
    ['2001:db8:0:1:1:1:1:1/64', 6, '2001:db8:0:1:1:1:1:1', 64, '2001:db8:0:1:1:1:1:1/64'],
    // RFC 5952 4.2.3: the longest zero run is shortened, the first one on a tie.
    ['2001:0:0:1:0:0:0:1', 6, '2001:0:0:1::1', 128, '2001:0:0:1::1/128'],
    ['2001:db8:0:0:1:0:0:1', 6, '2001:db8::1:0:0:1', 128, '2001:db8::1:0:0:1/128'],
    // RFC 5952 5: IPv4-mapped addresses keep the dotted quad.
    ['::FFFF:c000:0201/128', 6, '::ffff:192.0.2.1', 128, '::ffff:192.0.2.1/128'],
    ['::1.2.3.4', 6, '::102:304', 128, '::102:304/128'],
    ['1:2:3:4:5:6:7:8', 6, '1:2:3:4:5:6:7:8', 128, '1:2:3:4:5:6:7:8/128'],
  ])('%s -> %s', (input, family, address, prefix, canonical) => {
    expect(parseCidr(input)).toEqual({
      ok: true,
      value: { family, address, prefix, canonical, hostBitsSet: expect.any(Boolean) as boolean },
    });
  });

  it('keeps host bits as written and says they are set', () => {
    expect(parseCidr('10.1.2.3/8')).toMatchObject({
      ok: true,
      value: { canonical: '10.1.2.3/8', hostBitsSet: true },
    });
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ ok: true, value: { hostBitsSet: false } });
    expect(parseCidr('192.0.2.128/25')).toMatchObject({ ok: true, value: { hostBitsSet: false } });
    expect(parseCidr('192.0.2.129/24')).toMatchObject({ ok: true, value: { hostBitsSet: true } });
    expect(parseCidr('2001:db8::1/64')).toMatchObject({ ok: true, value: { hostBitsSet: true } });
    expect(parseCidr('2001:db8::/32')).toMatchObject({ ok: true, value: { hostBitsSet: false } });
  });

  it.each([
    ['10.0.0.0/33', 'prefix 33 is out of range for IPv4 (0-32)'],
    ['::/129', 'prefix 129 is out of range for IPv6 (0-128)'],
    ['10.0.0.0/99999999999999999999', 'prefix 99999999999999999999 is out of range for IPv4 (0-32)'],
    ['10.0.0.0/', 'prefix "" is not a number (write e.g. /24)'],
    ['10.0.0.0/08', 'prefix "08" is not a number (write e.g. /24)'],
    ['10.0.0.0/+8', 'prefix "+8" is not a number (write e.g. /24)'],
    ['10.0.0.0/8/8', 'prefix "8/8" is not a number (write e.g. /24)'],
    ['10.0.0.0/ 8', 'prefix " 8" is not a number (write e.g. /24)'],
    ['', '"" is not an IPv4 or IPv6 address'],
    ['/8', '"" is not an IPv4 or IPv6 address'],
    ['10.0.0/8', '"10.0.0" is not an IPv4 or IPv6 address'],
    ['010.0.0.0/8', '"010.0.0.0" is not an IPv4 or IPv6 address'],
    [' 10.0.0.0/8', '" 10.0.0.0" is not an IPv4 or IPv6 address'],
    ['fe80::1%eth0/64', '"fe80::1%eth0" is not an IPv4 or IPv6 address'],
    ['example.com/24', '"example.com" is not an IPv4 or IPv6 address'],
  ])('rejects %j', (input, reason) => {
    expect(parseCidr(input)).toEqual({ ok: false, reason });
  });
});
