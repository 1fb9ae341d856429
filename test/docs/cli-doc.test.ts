import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliReference } from '../../src/cli/reference.js';

describe('docs/cli.md', () => {
  it('is what the commands generate (run `npm run build && npm run gen:cli-doc` after changing a command)', async () => {
    expect(readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8')).toBe(await cliReference());
  });
});
