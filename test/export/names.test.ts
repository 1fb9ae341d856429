import { describe, expect, it } from 'vitest';
import { NameAllocator, nameCandidates, slugify } from '../../src/export/names.js';
import { descriptors } from '../../src/resources/index.js';

describe('export names', () => {
  it('slugifies into the config name pattern', () => {
    expect(slugify('Office VPN (Berlin)')).toBe('office-vpn-berlin');
    expect(slugify('*.example.com')).toBe('wildcard.example.com');
    expect(slugify('10.0.0.0/8')).toBe('10.0.0.0-8');
    expect(slugify('--- !!')).toBe('');
    expect(slugify('Büro Köln')).toBe('buro-koln');
    expect(slugify('Ｆｕｌｌｗｉｄｔｈ Café')).toBe('fullwidth-cafe');
  });

  it('falls back from the description to identifying fields and then to the kind', () => {
    const d = descriptors.reserved_domains;
    expect(nameCandidates(d, { id: 'rd_1', description: '', domain: 'api.example.com' })).toEqual([
      'api.example.com',
      'reserved-domain',
    ]);
    expect(nameCandidates(descriptors.tunnel_group_backends, { id: 'bkdtg_1', description: '' })).toEqual([
      'tunnel_group',
    ]);
  });

  it('makes names unique with the next free suffix, keeping reserved ones', () => {
    const names = new NameAllocator();
    expect(names.reserve('web')).toBe(true);
    expect(names.reserve('web')).toBe(false);
    expect(names.allocate(['web'])).toBe('web-2');
    expect(names.allocate(['web', 'web.example.com'])).toBe('web.example.com');
    expect(names.allocate(['web'])).toBe('web-3');
  });
});
