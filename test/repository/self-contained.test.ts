import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const scanned = ['src', 'test', 'bench', '.ci'];

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (/\.(ts|js|mjs|cjs|json|sh)$/.test(entry.name) || entry.name === 'run') yield path;
  }
}

/** Relative paths written in a file (`'../x'`, `new URL('../../y', import.meta.url)`) that climb. */
function climbingPaths(text: string): string[] {
  return [...text.matchAll(/(?<![\w.])((?:\.\.\/)+[^'"`\s)]*)/g)].map((m) => m[1]!);
}

function escapes(target: string): boolean {
  const rel = relative(root, target);
  return rel === '..' || rel.startsWith(`..${sep}`);
}

describe('the repository is self-contained', () => {
  it('no file under src/, test/, bench/ or .ci/ refers to a path outside the repository root', () => {
    const outside: string[] = [];
    for (const top of scanned) {
      for (const file of filesUnder(join(root, top))) {
        // A line may name an outside path as data (a hostile config a test feeds the loader) when it says so.
        const lines = readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => !line.includes('outside-path: intended'));
        for (const path of lines.flatMap(climbingPaths)) {
          if (escapes(resolve(dirname(file), path))) outside.push(`${relative(root, file)}: ${path}`);
        }
        if (lines.some((line) => /['"`]\/work\//.test(line)))
          outside.push(`${relative(root, file)}: an absolute /work path`);
      }
    }
    expect(outside).toEqual([]);
  });

  it('recognises a path that climbs out of the repository', () => {
    const file = join(root, 'test', 'resources', 'x.test.ts');
    const up = '../'.repeat(3);
    const [path] = climbingPaths(`new URL('${up}shared/spec/', import.meta.url)`);
    expect(path).toBe(`${up}shared/spec/`);
    expect(escapes(resolve(dirname(file), path!))).toBe(true);
    expect(escapes(resolve(dirname(file), '../../src/'))).toBe(false);
  });
});
