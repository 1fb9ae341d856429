/**
 * Every export of src/ is imported by some other file: an export nobody imports is a module's
 * inside shown as its surface, which a reader must then check before changing it.
 *
 * The rule. An export counts as used when another file of the project (src/, test/, bench/: the
 * files `tsconfig.json` holds) imports it by name, directly or through any chain of named
 * re-exports, or imports its whole module (`import * as`, `import()`, `typeof import()`: each
 * counts every export of that module, as the checker cannot tell which are read). A test's import
 * is a use: tests check units through their exports. A named re-export (`export { x } from`) is an
 * export of its own and needs its own importer; `export *` passes names through and is not one.
 * The package has no library entry point (only its bin), so being public makes nothing used.
 */
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** `file: name` of exports that may stay unused; each entry says why. Keep it empty. */
const allowed: readonly string[] = [];

function projectProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (config === undefined) throw new Error('tsconfig.json did not load');
  return ts.createProgram({ rootNames: config.fileNames, options: config.options });
}

/** Every export symbol some file imports: each hop of a chain of named re-exports, and its end. */
function importedSymbols(program: ts.Program, files: readonly ts.SourceFile[]): Set<ts.Symbol> {
  const checker = program.getTypeChecker();
  const used = new Set<ts.Symbol>();
  const follow = (local: ts.Symbol | undefined): void => {
    let symbol = local;
    while (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias) {
      symbol = checker.getImmediateAliasedSymbol(symbol);
      if (symbol !== undefined) used.add(symbol);
    }
  };
  const everyExport = (specifier: ts.Node): void => {
    const module = checker.getSymbolAtLocation(specifier);
    if (module === undefined) return;
    for (const e of checker.getExportsOfModule(module)) {
      used.add(e);
      follow(e);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause !== undefined) {
      const { name, namedBindings } = node.importClause;
      if (name !== undefined) follow(checker.getSymbolAtLocation(name));
      if (namedBindings !== undefined && ts.isNamedImports(namedBindings))
        for (const element of namedBindings.elements) follow(checker.getSymbolAtLocation(element.name));
      if (namedBindings !== undefined && ts.isNamespaceImport(namedBindings))
        everyExport(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      if (node.arguments[0] !== undefined) everyExport(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      everyExport(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);
  return used;
}

/** `src/file.ts: name` for each export of src/ that no other file imports. */
function unusedExports(): string[] {
  const program = projectProgram();
  const checker = program.getTypeChecker();
  const files = program
    .getSourceFiles()
    .filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/'));
  const used = importedSymbols(program, files);
  const unused: string[] = [];
  for (const file of files) {
    const path = relative(root, file.fileName);
    const module = checker.getSymbolAtLocation(file);
    if (!path.startsWith('src/') || module === undefined) continue;
    for (const e of checker.getExportsOfModule(module)) {
      // A name `export *` passes through is its declaring file's export, judged there.
      const own = e.flags & ts.SymbolFlags.Alias || e.declarations?.some((d) => d.getSourceFile() === file);
      if (own && !used.has(e)) unused.push(`${path}: ${e.name}`);
    }
  }
  return unused.sort();
}

describe('exports of src/', () => {
  it('are each imported by another file of the project', { timeout: 120_000 }, () => {
    expect(unusedExports()).toEqual(allowed);
  });
});
