import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backendKinds } from '../../src/resources/fields.js';
import { descriptors, type KindDescriptor } from '../../src/resources/index.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** Files under src/ whose text matches `pattern`, relative to the repository root. */
function filesMatching(pattern: RegExp): string[] {
  return [...sourceFiles(join(root, 'src'))]
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file));
}

describe('each piece of knowledge has one owner in src/', () => {
  it('"is this a JSON object" is written once, in src/plain-object.ts', () => {
    const owners = filesMatching(/=== 'object' && \w+ !== null && !Array\.isArray\(/);
    expect(owners).toEqual(['src/plain-object.ts']);
  });

  it('strings are ordered by src/compare.ts alone: no localeCompare, no sort in its default order', () => {
    // `sort()` without a comparator orders by UTF-16 code units; `list<dyn>.sort()` is a CEL signature.
    const owners = filesMatching(/localeCompare\(|Intl\.Collator|[\w\])]\.sort\(\)/);
    expect(owners).toEqual([]);
  });

  it('a count names its noun through counted() or a kind’s titlePlural: no appended "s", no "(s)"', () => {
    const owners = filesMatching(/\? '' : 's'|\? 's' : ''|\} [a-z]+\(s\)/);
    expect(owners).toEqual([]);
  });

  it('deep equality of JSON values is fast-deep-equal alone', () => {
    expect(filesMatching(/isDeepStrictEqual|deepStrictEqual\(/)).toEqual([]);
  });

  it('the kinds a backend reference may name are the kinds of the `backends` map', () => {
    const inBackendsMap = (Object.values(descriptors) as KindDescriptor[])
      .filter((d) => d.config?.key === 'backends')
      .map((d) => d.kind);
    expect([...backendKinds].sort()).toEqual(inBackendsMap.sort());
  });

  it('"the private key matches the certificate" is a descriptor rule, checked nowhere else', () => {
    const callers = filesMatching(/privateKeyMatchesCertificate\(/).filter(
      (file) => !file.startsWith('src/resources/formats/'),
    );
    expect(callers).toEqual(['src/resources/rules.ts']);
  });
});
