import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

/** Relative modules a file imports or re-exports, type-only ones included (they tie modules too). */
function importedModules(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const targets: string[] = [];
  for (const statement of source.statements) {
    const specifier =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
        ? statement.moduleSpecifier
        : undefined;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      targets.push(resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')));
    }
  }
  return targets;
}

export function importGraph(files: Map<string, string>): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files)
    graph.set(
      file,
      importedModules(file, text).filter((t) => files.has(t)),
    );
  return graph;
}

/** Every strongly connected group of more than one module, or a module importing itself (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('module structure', () => {
  it('src/ has no import cycle', () => {
    const files = new Map<string, string>();
    for (const file of sourceFiles(join(root, 'src'))) files.set(file, readFileSync(file, 'utf8'));
    const groups = cycles(importGraph(files)).map((group) => group.map((file) => relative(root, file)));
    expect(groups).toEqual([]);
  });

  it('finds a cycle through three modules, type-only imports and re-exports included', () => {
    const files = new Map([
      ['/r/a.ts', "import { b } from './b.js';"],
      ['/r/b.ts', "import { c } from './c.js';"],
      ['/r/c.ts', "export { a } from './a.js';"],
      ['/r/d.ts', "import type { a } from './a.js';"],
      ['/r/e.ts', "import { type d } from './d.js'; import { c } from './c.js';"],
    ]);
    files.set('/r/x.ts', "import { y } from './y.js';");
    files.set('/r/y.ts', "import type { x } from './x.js';");
    files.set('/r/z.ts', 'export const z = 1;');
    expect(cycles(importGraph(files))).toEqual([
      ['/r/a.ts', '/r/b.ts', '/r/c.ts'],
      ['/r/x.ts', '/r/y.ts'],
    ]);
  });

  it('only the CLI imports the CLI: the stages below it never reach up', () => {
    const files = new Map<string, string>();
    for (const file of sourceFiles(join(root, 'src'))) files.set(file, readFileSync(file, 'utf8'));
    const cli = join(root, 'src', 'cli') + sep;
    const upward = [...importGraph(files)].flatMap(([file, targets]) =>
      file.startsWith(cli)
        ? []
        : targets
            .filter((t) => t.startsWith(cli))
            .map((t) => `${relative(root, file)} -> ${relative(root, t)}`),
    );
    expect(upward).toEqual([]);
  });

  it('each stage imports exactly the stages docs/architecture.md lists for it, and that list has no cycle', () => {
    const documented = documentedStageImports();
    const files = new Map<string, string>();
    for (const file of sourceFiles(join(root, 'src'))) files.set(file, readFileSync(file, 'utf8'));
    const actual = new Map<string, Set<string>>();
    const sharedReachingUp: string[] = [];
    for (const [file, targets] of importGraph(files)) {
      const from = stageOf(file);
      for (const target of targets) {
        const to = stageOf(target);
        if (to === undefined || to === from) continue;
        if (from === undefined) sharedReachingUp.push(`${relative(root, file)} -> ${relative(root, target)}`);
        else actual.set(from, (actual.get(from) ?? new Set()).add(to));
      }
    }
    const stages = readdirSync(join(root, 'src'), { withFileTypes: true }).filter((e) => e.isDirectory());
    const rows = (m: Map<string, Set<string>>, names: Iterable<string>) =>
      Object.fromEntries([...names].sort().map((n) => [n, [...(m.get(n) ?? [])].sort()]));
    expect(rows(documented, documented.keys())).toEqual(
      rows(
        actual,
        stages.map((e) => e.name),
      ),
    );
    expect(sharedReachingUp).toEqual([]);
    const graph = new Map([...documented].map(([stage, deps]) => [stage, [...deps]]));
    expect(cycles(graph)).toEqual([]);
  });

  it('a stage is imported through its index.ts only, but for the modules docs/architecture.md lists', () => {
    const files = new Map<string, string>();
    for (const file of sourceFiles(join(root, 'src'))) files.set(file, readFileSync(file, 'utf8'));
    const reaching: string[] = [];
    for (const [file, targets] of importGraph(files)) {
      for (const target of targets) {
        const to = stageOf(target);
        if (to === undefined || to === stageOf(file)) continue;
        if (target === join(root, 'src', to, 'index.ts')) continue;
        reaching.push(`${srcPath(file)} -> ${srcPath(target)}`);
      }
    }
    expect(reaching.sort()).toEqual(documentedDirectImports().sort());
  });
});

/** The stage directory of a file under src/; undefined for the shared files directly under it. */
function stageOf(file: string): string | undefined {
  const parts = relative(join(root, 'src'), file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** docs/architecture.md's table "Which stage imports which": each directory and the stages it imports. */
function documentedStageImports(): Map<string, Set<string>> {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### Which stage imports which'));
  const rows = new Map<string, Set<string>>();
  for (const line of section.split('\n')) {
    const row = /^\| `([a-z-]+)` +\|(.*)\|$/.exec(line);
    if (row !== null)
      rows.set(
        row[1] as string,
        new Set([...(row[2] ?? '').matchAll(/`([a-z-]+)`/g)].map((m) => m[1] as string)),
      );
    else if (rows.size > 0 && !line.startsWith('|')) break;
  }
  return rows;
}

/** A file's path under src/, with forward slashes, as docs/architecture.md writes it. */
function srcPath(file: string): string {
  return relative(join(root, 'src'), file).split(sep).join('/');
}

/** docs/architecture.md's table "Past a stage's index": each module imported directly, and by whom. */
function documentedDirectImports(): string[] {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf("### Past a stage's index"));
  const pairs: string[] = [];
  let inTable = false;
  for (const line of section.split('\n')) {
    const row = /^\| `([a-z/.-]+)` +\| `([a-z/.-]+)` +\|/.exec(line);
    if (row !== null) pairs.push(`${row[1]} -> ${row[2]}`);
    if (line.startsWith('|')) inTable = true;
    else if (inTable) break;
  }
  return pairs;
}
