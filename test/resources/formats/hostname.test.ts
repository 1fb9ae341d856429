import { describe, expect, it } from 'vitest';

import { isHostname, isWildcardHostname, parseHostport } from '../../../src/resources/formats/index.js';

const label63 = 'a'.repeat(63);

describe('isHostname', () => {
  it.each([
    'localhost',
    'example.com',
    'API.Example.COM',
    'a-b.c-d.example',
    '3com.com',
    'xn--bcher-kva.example',
    `${label63}.example.com`,
    // 4 * 63 + 3 dots = 255 is too long, so trim to exactly 253.
    [label63, label63, label63, 'a'.repeat(61)].join('.'),
  ])('accepts %s', (s) => expect(isHostname(s)).toBe(true));

  it.each([
    '',
    'example.com.',
    '.example.com',
    'a..b',
    '-a.example.com',
    'a-.example.com',
    'under_score.example.com',
    '*.example.com',
    'exa mple.com',
    `${'a'.repeat(64)}.example.com`,
    [label63, label63, label63, 'a'.repeat(62)].join('.'),
    '192.0.2.1',
    'ex\u00e4mple.com',
  ])('rejects %j', (s) => expect(isHostname(s)).toBe(false));
});

describe('isWildcardHostname', () => {
  it.each(['*.example.com', '*.localhost'])('accepts %s', (s) => expect(isWildcardHostname(s)).toBe(true));
  it.each(['*', '*.', 'example.com', '*example.com', 'a.*.example.com', '*.*.example.com', '**.example.com'])(
    'rejects %j',
    (s) => expect(isWildcardHostname(s)).toBe(false),
  );
});

describe('parseHostport', () => {
  it.each([
    ['api.example.com:443', 'api.example.com', 443],
    ['1.tcp.example.com:20001', '1.tcp.example.com', 20001],
    ['192.0.2.1:1', '192.0.2.1', 1],
    ['[2001:db8::1]:65535', '2001:db8::1', 65535],
  ])('%s', (s, host, port) => {
    expect(parseHostport(s)).toEqual({ ok: true, value: { host, port } });
  });

  it.each([
    ['api.example.com', '"api.example.com" has no port (expected host:port)'],
    [':443', '":443" has no host (expected host:port)'],
    ['[]:443', '"[]:443" has no host (expected host:port)'],
    ['api.example.com:0', 'port "0" is not a number from 1 to 65535'],
    ['api.example.com:65536', 'port "65536" is not a number from 1 to 65535'],
    ['api.example.com:0443', 'port "0443" is not a number from 1 to 65535'],
    ['api.example.com:', 'port "" is not a number from 1 to 65535'],
    ['api.example.com:https', 'port "https" is not a number from 1 to 65535'],
    ['bad_host:80', '"bad_host" is not a hostname or IP address'],
    ['*.example.com:80', '"*.example.com" is not a hostname or IP address'],
    ['2001:db8::1:443', '"2001:db8::1:443": write an IPv6 host in brackets, e.g. [2001:db8::1]:443'],
    ['[192.0.2.1]:80', '"192.0.2.1" is not a hostname or IP address'],
  ])('rejects %j', (s, reason) => {
    expect(parseHostport(s)).toEqual({ ok: false, reason });
  });
});
