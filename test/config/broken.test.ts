/**
 * The corpus of broken configs: each folder under test/fixtures/config/broken holds the files and
 * an expected.json listing the errors that must be reported, by file, line and message fragment.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDesiredState, type Diagnostic } from '../../src/config/index.js';

const corpus = fileURLToPath(new URL('../fixtures/config/broken/', import.meta.url));

interface Expected {
  readonly errors: ReadonlyArray<{ file: string; line: number; message: string }>;
  readonly env?: Record<string, string>;
  readonly paths?: string[];
}

const cases = readdirSync(corpus).sort();

function summary(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity}: ${d.message}`).join('\n');
}

describe('broken configs', () => {
  it('has at least 40 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s is rejected at the right file and line', async (name) => {
    const dir = join(corpus, name);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')) as Expected;
    const result = await loadDesiredState(expected.paths ?? ['.'], { cwd: dir, env: expected.env ?? {} });
    expect(result.ok, `${name} should not load`).toBe(false);
    if (result.ok) return;
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    for (const e of expected.errors) {
      const match = errors.find(
        (d) => d.file === e.file && d.line === e.line && d.message.includes(e.message),
      );
      expect(match, `expected ${e.file}:${e.line} "${e.message}" among:\n${summary(errors)}`).toBeDefined();
      expect(match!.column).toBeGreaterThanOrEqual(1);
    }
  });
});
