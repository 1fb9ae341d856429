import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trafficTestsSchemaText } from '../../src/traffic/tests-schema.js';

describe('schemas/traffic-tests.schema.json', () => {
  it('is what src/traffic/tests-schema.ts generates (run `npm run build && npm run gen:schema` after changing it)', () => {
    const committed = new URL('../../schemas/traffic-tests.schema.json', import.meta.url);
    expect(readFileSync(committed, 'utf8')).toBe(trafficTestsSchemaText());
  });
});
