/**
 * The config's `moved:` entries (docs/config.md "Renaming an entry"), checked as a set as
 * Terraform checks its `moved` blocks: each names entry keys of one kind, no object moves twice,
 * no chain loops, an old name has no entry left and a new one has. Chains resolve to the entry
 * they end at, so the planner sees each old key with its final new key.
 */
import { isPlainObject } from '../plain-object.js';
import type { DesiredMove } from '../resources/index.js';
import { configLayout } from './layout.js';
import { locate, type FileFinding, type SourceFile } from './source.js';
import { didYouMean } from '../suggest.js';

/** A `moved:` entry where it is written. */
interface WrittenMove {
  readonly from: string;
  readonly to: string;
  readonly source: SourceFile;
  readonly index: number;
}

/** An entry key's parts: its map, its name, and for a nested item its parent's key and member. */
interface KeyParts {
  readonly map: string;
  readonly parent?: string;
  readonly member?: string;
}

function partsOf(key: string): KeyParts | string {
  const [map = '', name = '', member, ...item] = key.split('/');
  const layout = configLayout.find((m) => m.key === map);
  if (layout === undefined) {
    const hint = didYouMean(
      map,
      configLayout.map((m) => m.key),
    );
    return `${map} is not a map of the config${hint === undefined ? '' : `: ${hint}`}`;
  }
  if (name === '') return `no name after ${map}/`;
  if (member === undefined) return { map };
  if (!layout.children.some((c) => c.member === member) || item.join('/') === '')
    return `write ${map}/<name>, or ${map}/<name>/<member>/<item> for a nested item`;
  return { map, parent: `${map}/${name}`, member };
}

function writtenMoves(sources: readonly SourceFile[]): WrittenMove[] {
  return sources.flatMap((source) => {
    const list = isPlainObject(source.value) ? source.value.moved : undefined;
    if (!Array.isArray(list)) return [];
    return list.flatMap((m: unknown, index) =>
      isPlainObject(m) && typeof m.from === 'string' && typeof m.to === 'string'
        ? [{ from: m.from, to: m.to, source, index }]
        : [],
    );
  });
}

const at = (m: WrittenMove, member: 'from' | 'to', message: string, hint?: string): FileFinding => ({
  source: m.source,
  path: ['moved', m.index, member],
  message,
  ...(hint === undefined ? {} : { hint }),
});

const where = (m: WrittenMove): string => {
  const { line, column } = locate(m.source, ['moved', m.index]);
  return `${m.source.file}:${line}:${column}`;
};

/** Problems of one move on its own and against the entries. */
function moveProblems(
  m: WrittenMove,
  keys: ReadonlySet<string>,
  froms: ReadonlyMap<string, string>,
): FileFinding[] {
  const from = partsOf(m.from);
  const to = partsOf(m.to);
  if (typeof from === 'string') return [at(m, 'from', `${m.from}: ${from}`)];
  if (typeof to === 'string') return [at(m, 'to', `${m.to}: ${to}`)];
  const out: FileFinding[] = [];
  if (from.map !== to.map || from.member !== to.member)
    out.push(
      at(
        m,
        'to',
        `moved from ${m.from} to ${m.to}: a move keeps the object, which cannot change kind`,
        'remove this move to replace the object instead',
      ),
    );
  else if (from.parent !== undefined && (froms.get(from.parent) ?? from.parent) !== to.parent)
    out.push(
      at(
        m,
        'to',
        `moved from ${m.from} to ${m.to}: a nested item moves only within its parent (the service cannot move it to another)`,
        `its parent ${from.parent} moves to ${froms.get(from.parent) ?? from.parent}`,
      ),
    );
  if (keys.has(m.from))
    out.push(
      at(
        m,
        'from',
        `${m.from} still has an entry: a move's from is the old name, which no entry may keep`,
        'remove the entry, or this move',
      ),
    );
  if (!keys.has(m.to) && !froms.has(m.to)) {
    const hint = didYouMean(m.to, keys);
    out.push(at(m, 'to', `${m.to} names no entry`, hint ?? 'a move ends at an entry of the config'));
  }
  return out;
}

/** The move following `from` to the entry it ends at, or the loop it runs into. */
function follow(from: string, froms: ReadonlyMap<string, string>): { to: string } | { loop: string[] } {
  const seen = [from];
  let at = froms.get(from) ?? from;
  while (froms.has(at)) {
    if (seen.includes(at)) return { loop: [...seen, at] };
    seen.push(at);
    at = froms.get(at) ?? at;
  }
  return { to: at };
}

/** The moves of `sources` checked against the entry `keys`; problems go to `findings`. */
export function checkMoves(
  sources: readonly SourceFile[],
  keys: ReadonlySet<string>,
  findings: FileFinding[],
): DesiredMove[] {
  const moves = writtenMoves(sources);
  const froms = new Map<string, string>();
  const tos = new Map<string, WrittenMove>();
  const firstOf = new Map<string, WrittenMove>();
  const problems: FileFinding[] = [];
  for (const m of moves) {
    const earlier = firstOf.get(m.from);
    const into = tos.get(m.to);
    if (earlier !== undefined)
      problems.push(
        at(m, 'from', `${m.from} is moved twice (also at ${where(earlier)})`, 'keep one move per object'),
      );
    else if (into !== undefined)
      problems.push(
        at(
          m,
          'to',
          `${into.from} and ${m.from} are both moved to ${m.to} (also at ${where(into)})`,
          'one object per entry: keep one of the moves',
        ),
      );
    else {
      firstOf.set(m.from, m);
      tos.set(m.to, m);
      froms.set(m.from, m.to);
    }
  }
  for (const m of firstOf.values()) problems.push(...moveProblems(m, keys, froms));
  for (const m of firstOf.values()) {
    const end = follow(m.from, froms);
    if ('loop' in end)
      problems.push(
        at(m, 'to', `moves loop: ${end.loop.join(' -> ')}`, 'a chain of moves must end at an entry'),
      );
  }
  findings.push(...problems);
  if (problems.length > 0) return [];
  return [...firstOf.values()].map((m) => {
    const end = follow(m.from, froms);
    const { line, column } = locate(m.source, ['moved', m.index]);
    return { from: m.from, to: 'to' in end ? end.to : m.to, source: { file: m.source.file, line, column } };
  });
}
