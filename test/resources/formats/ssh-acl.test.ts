import { describe, expect, it } from 'vitest';

import { parseSshAclRule } from '../../../src/resources/formats/index.js';

describe('parseSshAclRule', () => {
  it.each([
    ['*', { kind: 'any' }],
    ['bind:api.example.com', { kind: 'domain', domain: 'api.example.com' }],
    ['bind:*.example.com', { kind: 'domain-suffix', suffix: 'example.com' }],
    ['bind:1.tcp.example.com:20001', { kind: 'address', host: '1.tcp.example.com', port: 20001 }],
    ['bind:192.0.2.1:22', { kind: 'address', host: '192.0.2.1', port: 22 }],
    ['bind:env=prod', { kind: 'label', key: 'env', value: 'prod' }],
    ['bind:*=prod', { kind: 'label', key: '*', value: 'prod' }],
    ['bind:env=*', { kind: 'label', key: 'env', value: '*' }],
    ['bind:*=*', { kind: 'label', key: '*', value: '*' }],
    ['bind:edge=edghts_2ABC', { kind: 'label', key: 'edge', value: 'edghts_2ABC' }],
  ])('accepts %s', (rule, value) => {
    expect(parseSshAclRule(rule)).toEqual({ ok: true, value });
  });

  it.each([
    ['', 'rule "": only bind: rules (or *) are allowed'],
    ['connect:example.com', 'rule "connect:example.com": only bind: rules (or *) are allowed'],
    ['BIND:example.com', 'rule "BIND:example.com": only bind: rules (or *) are allowed'],
    ['**', 'rule "**": only bind: rules (or *) are allowed'],
    ['bind:', 'empty bind target (write e.g. bind:api.example.com)'],
    ['bind:*', 'bind:* is not a rule: use * alone to allow everything'],
    [' bind:example.com', 'rule " bind:example.com" contains whitespace or control characters'],
    ['bind:example.com\n', 'rule "bind:example.com?" contains whitespace or control characters'],
    ['bind:env =prod', 'rule "bind:env =prod" contains whitespace or control characters'],
    ['bind:=prod', 'label rule "=prod" needs both a key and a value'],
    ['bind:env=', 'label rule "env=" needs both a key and a value'],
    ['bind:a=b=c', 'label rule "a=b=c" has more than one ='],
    ['bind:env=prod*', 'label rule "env=prod*": * must stand for the whole key or the whole value'],
    ['bind:e*=prod', 'label rule "e*=prod": * must stand for the whole key or the whole value'],
    [
      'bind:a.*.example.com',
      '"a.*.example.com": a wildcard may only be the whole first label, as in *.example.com',
    ],
    [
      'bind:*example.com',
      '"*example.com": a wildcard may only be the whole first label, as in *.example.com',
    ],
    ['bind:example.com:0', 'bind address: port "0" is not a number from 1 to 65535'],
    ['bind:*.example.com:443', 'bind address: "*.example.com" is not a hostname or IP address'],
    ['bind:bad_host', 'bind target "bad_host" is not a domain, host:port address or key=value label'],
    ['bind:example.com.', 'bind target "example.com." is not a domain, host:port address or key=value label'],
  ])('rejects %j', (rule, reason) => {
    expect(parseSshAclRule(rule)).toEqual({ ok: false, reason });
  });
});
