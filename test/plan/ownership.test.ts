import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  cachedSecretHasher,
  formatMetadata,
  hashSecret,
  parseMetadata,
  secretMatches,
} from '../../src/resources/ownership/marker.js';

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

  it('matches a stored hash of either format, and a stored value it cannot read as a change', () => {
    const hash = cachedSecretHasher();
    const legacy = createHash('sha256').update('s1\0secret').digest('base64url').slice(0, 32);
    expect(secretMatches(hash, 's1', legacy, 'secret')).toBe(true);
    expect(secretMatches(hash, 's1', legacy, 'other')).toBe(false);
    expect(secretMatches(hash, 's1', hashSecret('s1', 'secret'), 'secret')).toBe(true);
    expect(secretMatches(hash, 's1', hashSecret('s1', 'secret'), 'other')).toBe(false);
    expect(secretMatches(hash, 's1', 's1.garbage', 'secret')).toBe(false);
    expect(secretMatches(hash, 's1', '', 'secret')).toBe(false);
  });
});
