/**
 * The loader reads a clean file from the parser's tokens instead of composing its document tree
 * (src/config/fast-plain.ts). Whatever path a file takes, the result must be the composed path's: the
 * same data, entry places, line starts and findings. Both are run over every YAML file of the
 * repository, a 10,000-object generated config, core-schema scalars in every position, and mutations.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LineCounter, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { writeAccount } from '../../bench/lib/synthetic.js';
import { fastParse } from '../../src/config/fast-plain.js';
import { unusual } from '../../src/config/plain-value.js';
import { composedSource, parseSource } from '../../src/config/source.js';
import { mutateMany } from '../reliability/support/mutate.js';
import { createRng, type Rng } from '../reliability/support/prng.js';

const root = join(import.meta.dirname, '../..');

/** A parse result as the rest of the loader sees it. */
function outcome(text: string, parse: typeof parseSource): unknown {
  const result = parse('f.yaml', '/f.yaml', text);
  if (!result.ok) return { ok: false, findings: result.findings };
  const { value, places, lineCounter } = result.source;
  return { ok: true, value, places: [...places], lineStarts: lineCounter.lineStarts };
}

/** Asserts both paths agree on `text`; true when the fast path took it. */
function same(text: string, label: string): boolean {
  expect(outcome(text, parseSource), label).toEqual(outcome(text, composedSource));
  return fastParse(text, new LineCounter()) !== unusual;
}

async function yamlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (['node_modules', 'dist', '.git'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await yamlFiles(path)));
    else if (/\.ya?ml$/.test(entry.name)) out.push(path);
  }
  return out;
}

const scalars = [
  ...[
    '',
    '~',
    'null',
    'Null',
    'NULL',
    'nULL',
    'nul',
    'true',
    'True',
    'TRUE',
    'tRUE',
    'false',
    'False',
    'FALSE',
    'yes',
    'on',
  ],
  ...[
    '0',
    '-0',
    '+0',
    '007',
    '+12',
    '-12',
    '0o17',
    '0o8',
    '0O17',
    '0x1F',
    '0xg',
    '0X1F',
    '-0x1',
    '123456789012345678901234567890',
  ],
  ...[
    '.inf',
    '-.inf',
    '+.Inf',
    '.INF',
    '.nan',
    '.NaN',
    '.NAN',
    '-.nan',
    'nan',
    '1.',
    '.5',
    '1.50',
    '-1.0',
    '+.5',
    '1e3',
    '1E-3',
  ],
  ...[
    '1.5e+3',
    '.5e3',
    '1.e3',
    'e3',
    '1e',
    '1_000',
    '12:30',
    '2024-01-01',
    '0.1.2',
    '-',
    '+',
    '.',
    'n',
    't',
    'f',
    'x y',
    '"q"',
  ],
  ...[
    "'s'",
    '"a\\tb"',
    '"\\x"',
    "'it''s'",
    '|\n    line\n',
    '>-\n    folded\n    text\n',
    '-x',
    '~x',
    '.x',
    'a #c',
  ],
];

/** Each scalar as a value, a key, a list item and a flow item, around the shapes of a config. */
function scalarDocs(): string[] {
  return scalars.flatMap((s) => [
    `version: 1\nsection:\n  entry:\n    field: ${s}\n`,
    `${s}: 1\n`,
    `section:\n  ${s}:\n    rules:\n    - ${s}\n    - x\n`,
    `section:\n  e:\n    list: [${s}, ${s}]\n`,
    `section: { ${s}: { rules: [${s}, { x: ${s} }] }, e: { ${s}: [${s}] } }\n`,
    `section:\n  e:\n    list:\n      - ${s}\n      # c\n      - a: ${s}\n        b: [${s}]  # c\n`,
  ]);
}

const keys = [
  'a',
  'rules',
  '__proto__',
  'constructor',
  '',
  '1',
  'true',
  'null',
  'a b',
  'x: y',
  '#c',
  '- x',
  '<<',
  'é',
];
const leaves: unknown[] = [
  null,
  true,
  false,
  0,
  -0,
  1.5,
  1e21,
  NaN,
  -Infinity,
  '',
  ' ',
  'a\nb',
  'x\n',
  "it's",
  '"q"',
  '0x1F',
  '~',
];

function randomValue(rng: Rng, depth: number): unknown {
  const roll = depth > 4 ? 0 : rng.int(3);
  if (roll === 0) return rng.pick([...leaves, ...keys]);
  if (roll === 1) return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = rng.int(4); i > 0; i--) {
    Object.defineProperty(out, rng.pick(keys), {
      value: randomValue(rng, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A random config-shaped document in a random style, with comment lines dropped in at random. */
function randomDocument(rng: Rng): string {
  const value = {
    version: 1,
    section: { entry: randomValue(rng, 2), other: randomValue(rng, 2) },
    x: randomValue(rng, 1),
  };
  const text = stringify(value, {
    collectionStyle: rng.pick(['any', 'block', 'flow'] as const),
    defaultStringType: rng.pick([
      'PLAIN',
      'QUOTE_DOUBLE',
      'QUOTE_SINGLE',
      'BLOCK_LITERAL',
      'BLOCK_FOLDED',
    ] as const),
    indentSeq: rng.chance(0.5),
    flowCollectionPadding: rng.chance(0.5),
    lineWidth: rng.pick([0, 20, 80]),
  });
  const lines = text.split('\n');
  for (let i = rng.int(4); i > 0; i--)
    lines.splice(rng.int(lines.length), 0, `${' '.repeat(rng.int(8))}# note`);
  return lines.join('\n');
}

describe('the fast parse', () => {
  it('gives what the composed parse gives for every YAML file in the repository', async () => {
    const files = await yamlFiles(root);
    expect(files.length).toBeGreaterThan(20);
    let fast = 0;
    for (const file of files) if (same(await readFile(file, 'utf8'), file)) fast++;
    expect(fast).toBeGreaterThan(0);
  });

  it('takes every file of a 10,000-object config, with the same result', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-fast-parse-'));
    try {
      await writeAccount(dir, 10_000, 'bench');
      for (const name of await readdir(dir)) {
        expect(same(await readFile(join(dir, name), 'utf8'), name), name).toBe(true);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('resolves plain scalars as the core schema does, in every position', () => {
    let fast = 0;
    for (const text of scalarDocs()) if (same(text, text)) fast++;
    // An implicit key just within the composer's 1,024-character limit.
    expect(same(`${'k'.repeat(990)}: 1\n`, 'a long key')).toBe(true);
    expect(fast).toBeGreaterThan(scalars.length);
  });

  it('leaves what it does not vouch for to the composed parse', () => {
    const unusualTexts = [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      'a: !secret x\n',
      '? a\n: 1\n',
      '<<: {b: 1}\n',
      '%YAML 1.2\n---\na: 1\n',
      'a: 1\n---\nb: 2\n',
      'a: 1\na: 2\n',
      '1: x\n',
      'a: {b: 1,\n  c: 2}\n',
      'a:\n\tb: 1\n',
      'a: 1\r\nb: 2\r\n',
      'a: [b,\n  c]\n',
      'a: "x"#c\n',
      `a: ${'['.repeat(100)}${']'.repeat(100)}\n`,
      'a:\n'.concat(Array.from({ length: 70 }, (_, i) => `${'  '.repeat(i + 1)}k:`).join('\n'), ' 1\n'),
      '',
      '- a\n',
      'a\n',
      'a: b: c\n',
      `${'k'.repeat(1100)}: 1\n`,
    ];
    for (const text of unusualTexts) {
      same(text, JSON.stringify(text));
      expect(fastParse(text, new LineCounter()), JSON.stringify(text)).toBe(unusual);
    }
  });

  it('agrees on 600 mutations of the example files', async () => {
    const dir = join(root, 'examples/account');
    const texts = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')));
    const rng = createRng(0x5eed);
    let fast = 0;
    for (let i = 0; i < 600; i++) {
      const { text, how } = mutateMany(rng.pick(texts), rng);
      if (same(text, how.join(', '))) fast++;
    }
    // Both paths are exercised.
    expect(fast).toBeGreaterThan(0);
    expect(fast).toBeLessThan(600);
  });

  it('agrees on 600 generated documents in every style, and takes most of them', () => {
    const rng = createRng(0xfa57);
    let fast = 0;
    for (let i = 0; i < 600; i++) {
      const text = randomDocument(rng);
      if (same(text, text)) fast++;
    }
    expect(fast).toBeGreaterThan(200);
  });
});
