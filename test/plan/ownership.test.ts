import { describe, expect, it } from 'vitest';
import { formatMetadata, hashSecret, parseMetadata } from '../../src/plan/ownership.js';

const marker = { scope: 'prod', key: 'ip_policies/office' };

describe('ownership marker in metadata', () => {
  it.each([
    ['empty metadata', ''],
    ['a plain string', 'owned by team-net'],
    ['a JSON object', '{"team":"net","tier":1}'],
    ['a JSON array', '[1,2]'],
    ['JSON with other spacing', '{ "team": "net" }'],
    ['a string that looks like an envelope', '{"user":"x"}'],
  ])('round-trips %s unchanged', (_name, user) => {
    const stored = formatMetadata(user, marker);
    expect(parseMetadata(stored)).toEqual({ marker, user });
  });

  it('keeps a JSON object readable to other tools, with the marker as one more member', () => {
    const stored = JSON.parse(formatMetadata('{"team":"net"}', marker)) as Record<string, unknown>;
    expect(stored.team).toBe('net');
    expect(stored.acctsync).toEqual(marker);
  });

  it('sees no marker in metadata acctsync did not write', () => {
    expect(parseMetadata('{"acctsync":"just a word"}')).toEqual({ user: '{"acctsync":"just a word"}' });
    expect(parseMetadata(null)).toEqual({ user: '' });
    expect(parseMetadata('not json')).toEqual({ user: 'not json' });
  });

  it('hashes secrets with the salt so equal values match and different values or salts do not', () => {
    expect(hashSecret('s1', 'secret')).toBe(hashSecret('s1', 'secret'));
    expect(hashSecret('s1', 'secret')).not.toBe(hashSecret('s1', 'other'));
    expect(hashSecret('s1', 'secret')).not.toBe(hashSecret('s2', 'secret'));
    expect(hashSecret('s1', 'secret')).not.toContain('secret');
  });
});
