/**
 * Random mutations of YAML config files for the loader fuzz: byte- and line-level damage, nasty
 * snippets (prototype keys, anchors, tags, deep nesting, references to files and variables), and
 * structural edits of the parsed document (types swapped, keys removed, added and renamed).
 */
import { parse, stringify } from 'yaml';
import type { Rng } from './prng.js';

const snippets: readonly string[] = [
  '__proto__: { polluted: true }',
  'constructor: { prototype: { polluted: true } }',
  'toString: 1',
  'anchor: &a [1, 2]',
  'alias: *a',
  '<<: { version: 2 }',
  '? [complex, key]: value',
  'bin: !!binary aGVsbG8=',
  'fn: !!js/function "function () {}"',
  'float: !!float .nan',
  'big: 123456789012345678901234567890',
  'inf: .inf',
  '---',
  '...',
  '%YAML 1.1',
  '{',
  '[',
  '"unterminated',
  "'unterminated",
  ': no key',
  '- - - -',
  '\tindented: with a tab',
  'version: 2',
  'scope: other',
  'scope: [not, a, string]',
  'description: { file: /nonexistent/acctsync-fuzz }',
  'description: { file: ../../../../../../etc/hostname }', // outside-path: intended, a config climbing out
  'description: { env: ACCTSYNC_FUZZ_UNSET }',
  'description: { env: 1 }',
  'description: { file: ., env: X }',
  'x: { file: [] }',
  `deep: ${'['.repeat(100)}${']'.repeat(100)}`,
  `deep: ${'{a: '.repeat(80)}1${'}'.repeat(80)}`,
  `long: ${'x'.repeat(20_000)}`,
  'unicode: "\u202e\u0000\ud83d\ude00"',
  'ip_policies: null',
  'backends: []',
  'backends: { web: { failover: { backends: [web] } } }',
  'ip_policies: { a: { rules: [{ cidr: 999.1.1.1/33, action: allow }] } }',
];

/** Values of every JSON/YAML type, and some edge cases, for structural replacement. */
function randomValue(rng: Rng): unknown {
  const values: unknown[] = [
    null,
    true,
    0,
    -1,
    1e308,
    2 ** 53 + 1,
    0.5,
    '',
    ' ',
    'x'.repeat(300),
    '\u0000',
    '__proto__',
    [],
    [null],
    {},
    { file: '/nonexistent' },
    { env: 'ACCTSYNC_FUZZ_UNSET' },
    { file: '../pki/ca.crt' },
    { a: { b: { c: [1, { d: 2 }] } } },
    '203.0.113.0/24',
    'ipp_00000000000000',
    'bkdtg_zzz',
  ];
  return rng.pick(values);
}

const keys = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'unknown_field',
  'id',
  'uri',
  'token',
  'created_at',
  'version',
  '',
];

type Container = Record<string, unknown> | unknown[];

/** Every container in a parsed document, with its parent chain implicit. */
/**
 * A YAML mapping as parsed: tags such as `!!binary` (a Uint8Array) or `!!set` also parse to
 * objects, whose members cannot be deleted or added like a mapping's.
 */
function isMapping(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function containers(value: unknown, out: Container[] = []): Container[] {
  if (Array.isArray(value)) {
    out.push(value);
    for (const v of value) containers(v, out);
  } else if (isMapping(value)) {
    out.push(value);
    for (const v of Object.values(value)) containers(v, out);
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // A plain assignment of __proto__ would change the prototype instead of adding a member.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function structural(text: string, rng: Rng): string | undefined {
  let doc: unknown;
  try {
    doc = parse(text, { uniqueKeys: false, logLevel: 'error' });
  } catch {
    return undefined;
  }
  const all = containers(doc);
  if (all.length === 0) return undefined;
  const target = rng.pick(all);
  const op = rng.int(5);
  if (Array.isArray(target)) {
    if (target.length > 0 && op < 2) target[rng.int(target.length)] = randomValue(rng);
    else if (target.length > 0 && op === 2) target.splice(rng.int(target.length), 1);
    else if (target.length > 0 && op === 3) target.push(structuredClone(target[rng.int(target.length)]));
    else target.push(randomValue(rng));
  } else {
    const names = Object.keys(target);
    const name = names.length > 0 ? rng.pick(names) : undefined;
    if (name !== undefined && op === 0) target[name] = randomValue(rng);
    else if (name !== undefined && op === 1) delete target[name];
    else if (name !== undefined && op === 2) {
      const value = target[name];
      delete target[name];
      setOwn(target, rng.pick(keys), value);
    } else if (name !== undefined && op === 3) target[name] = [target[name]];
    else setOwn(target, rng.pick(keys), randomValue(rng));
  }
  return stringify(doc);
}

/** One random mutation of `text`; the name says which, for the failure message. */
export function mutate(text: string, rng: Rng): { text: string; how: string } {
  const lines = text.split('\n');
  const at = rng.int(lines.length);
  switch (rng.int(9)) {
    case 0: {
      const pos = rng.int(text.length);
      const replacement = rng.pick([
        '\u0000',
        '\t',
        ':',
        '-',
        '#',
        '{',
        '}',
        '[',
        '"',
        '\ufffd',
        'é',
        ' ',
        '\r',
      ]);
      return {
        text: text.slice(0, pos) + replacement + text.slice(pos + 1),
        how: `char ${pos} -> ${JSON.stringify(replacement)}`,
      };
    }
    case 1:
      lines.splice(at, 1);
      return { text: lines.join('\n'), how: `line ${at + 1} deleted` };
    case 2:
      lines.splice(at, 0, lines[at] ?? '');
      return { text: lines.join('\n'), how: `line ${at + 1} duplicated` };
    case 3: {
      const other = rng.int(lines.length);
      const a = lines[at] ?? '';
      lines[at] = lines[other] ?? '';
      lines[other] = a;
      return { text: lines.join('\n'), how: `lines ${at + 1} and ${other + 1} swapped` };
    }
    case 4: {
      const pos = rng.int(text.length + 1);
      return { text: text.slice(0, pos), how: `truncated at ${pos}` };
    }
    case 5: {
      const line = lines[at] ?? '';
      lines[at] = rng.chance(0.5) ? `  ${line}` : line.replace(/^ {1,2}/, '');
      return { text: lines.join('\n'), how: `line ${at + 1} re-indented` };
    }
    case 6: {
      const snippet = rng.pick(snippets);
      const indent = (/^\s*/.exec(lines[at] ?? '') ?? [''])[0];
      lines.splice(at, 0, rng.chance(0.5) ? snippet : indent + snippet);
      return { text: lines.join('\n'), how: `snippet at line ${at + 1}: ${snippet.slice(0, 60)}` };
    }
    default: {
      const out = structural(text, rng);
      return out === undefined
        ? { text: `${text}\n${rng.pick(snippets)}`, how: 'snippet appended' }
        : { text: out, how: 'structural' };
    }
  }
}

/** One to three mutations in a row. */
export function mutateMany(text: string, rng: Rng): { text: string; how: string[] } {
  const hows: string[] = [];
  let current = text;
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    const m = mutate(current, rng);
    current = m.text;
    hows.push(m.how);
  }
  return { text: current, how: hows };
}
