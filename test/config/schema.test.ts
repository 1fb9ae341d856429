import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildConfigSchema } from '../../src/config/index.js';
import { managedDescriptors } from '../../src/resources/index.js';

const committed = new URL('../../schemas/acctsync.schema.json', import.meta.url);

describe('schemas/acctsync.schema.json', () => {
  it('is what the descriptors generate (run `npm run build && npm run gen:schema` after changing them)', () => {
    expect(JSON.parse(readFileSync(committed, 'utf8'))).toEqual(buildConfigSchema());
  });

  it('has a top-level map for every managed kind, closed to unknown members', () => {
    const schema = buildConfigSchema() as {
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    for (const d of managedDescriptors()) expect(Object.keys(schema.properties)).toContain(d.config!.key);
    expect(schema.additionalProperties).toBe(false);
  });
});
