/**
 * The command blocks (```sh, ```bash, ```shell, ```console) of the README and docs/*.md, with the
 * markers a doc puts on the line before a block for the doc tests:
 *
 * - `<!-- not-run: REASON -->`: the block is not run (it needs a cloud account, Docker, a cluster,
 *   or shows syntax); the reason is required.
 * - `<!-- run-by: test/PATH.test.ts -->`: another test runs the block (as the README's own-repository
 *   install, which packs a tarball).
 * - `<!-- run-in: DIR/ -->`: run it in DIR of the test's work tree instead of its root.
 *
 * Blocks of an `<!-- example: NAME -->` section of docs/plan-output.md are run by
 * test/docs/plan-output-doc.test.ts, and every `sh` block of docs/emulator.md by
 * test/docs/emulator-doc.test.ts: those tests own their files' examples.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CommandBlock {
  /** The file, relative to the repository root (`README.md`, `docs/watch.md`). */
  readonly file: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  /** The block's text, without the fence's indentation. */
  readonly body: string;
  /** The test that runs the block, when it is not the docs' command test. */
  readonly runBy?: string;
  /** Why it is not run, when it is not (may be empty: the test then fails). */
  readonly notRun?: string;
  readonly runIn?: string;
}

const commandLangs = new Set(['sh', 'bash', 'shell', 'console']);
const fence = /^( *)(`{3,})(\w*)\n([\s\S]*?)\n\1\2$/gm;
const marker = /^<!-- ([\w-]+):(.*?)-->$/;

/** The README and every docs/*.md, as paths from the repository root. */
export function documentedFiles(): string[] {
  const docs = readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .sort();
  return ['README.md', ...docs.map((name) => `docs/${name}`)];
}

/** The `<!-- key: value -->` lines right above `offset` (blank lines between are allowed). */
function markersAbove(text: string, offset: number): Map<string, string> {
  const lines = text.slice(0, offset).split('\n');
  lines.pop();
  const found = new Map<string, string>();
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const m = marker.exec(line);
    if (m === null) break;
    found.set(m[1] ?? '', (m[2] ?? '').trim());
  }
  return found;
}

/** Whether `offset` lies in an `<!-- example: NAME -->` section (which ends at the next `## `). */
function inExample(text: string, offset: number): boolean {
  const before = text.slice(0, offset);
  const example = before.lastIndexOf('\n<!-- example: ');
  return example >= 0 && !/^## /m.test(before.slice(example));
}

/** The test that owns the block's file's examples, if one does. */
function ownedBy(file: string, lang: string, text: string, offset: number): string | undefined {
  if (file === 'docs/emulator.md' && lang === 'sh') return 'test/docs/emulator-doc.test.ts';
  if (file === 'docs/plan-output.md' && inExample(text, offset)) return 'test/docs/plan-output-doc.test.ts';
  return undefined;
}

/** Every command block of `file`, in document order. */
export function commandBlocks(file: string): CommandBlock[] {
  const text = readFileSync(file, 'utf8');
  const blocks: CommandBlock[] = [];
  for (const m of text.matchAll(fence)) {
    const lang = m[3] ?? '';
    if (!commandLangs.has(lang)) continue;
    const indent = m[1] ?? '';
    const markers = markersAbove(text, m.index);
    const runBy = markers.get('run-by') ?? ownedBy(file, lang, text, m.index);
    const notRun = markers.get('not-run');
    const runIn = markers.get('run-in');
    blocks.push({
      file,
      line: text.slice(0, m.index).split('\n').length,
      lang,
      body: (m[4] ?? '')
        .split('\n')
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join('\n'),
      ...(runBy === undefined ? {} : { runBy }),
      ...(notRun === undefined ? {} : { notRun }),
      ...(runIn === undefined ? {} : { runIn }),
    });
  }
  return blocks;
}

/** A console block's commands: its `$ ` lines and their `\` continuations; an `sh` block whole. */
export function commandsOf(block: CommandBlock): string {
  if (block.lang !== 'console') return block.body;
  const out: string[] = [];
  let continued = false;
  for (const line of block.body.split('\n')) {
    if (continued || line.startsWith('$ ')) {
      out.push(continued ? line : line.slice(2));
      continued = line.endsWith('\\');
    }
  }
  return out.join('\n');
}
