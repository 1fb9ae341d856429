/**
 * Files read beside the config (`--policy` rules, `--traffic-tests`): YAML files or directories of
 * them, each problem reported at its own file:line:col like the config's, every one in one run.
 */
import { fileDiagnostic, type Diagnostic, type DocPath } from './diagnostic.js';
import { expandPaths } from './files.js';
import { locateInScalar } from './scalar-position.js';
import { locate, readSource, type SourceFile } from './source.js';

/** The problems found in one side file, each at its place in the file. */
export class SideFileReport {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly source: SourceFile) {}

  /** At the member's value (at `offset` inside a scalar, when given). */
  error(path: DocPath, message: string, hint?: string, offset?: number): void {
    const at = offset === undefined ? locate(this.source, path) : locateInScalar(this.source, path, offset);
    this.push(at, path, message, hint);
  }

  /** At the member's key: an unknown member. */
  atKey(path: DocPath, message: string, hint?: string): void {
    this.push(locate(this.source, path, true), path, message, hint);
  }

  private push(at: { line: number; column: number }, path: DocPath, message: string, hint?: string): void {
    this.diagnostics.push({
      severity: 'error',
      file: this.source.file,
      ...at,
      path: path.join('.'),
      message,
      ...(hint === undefined ? {} : { hint }),
    });
  }
}

/**
 * What `read` finds in each file under `paths` (`noun` names them in a missing path's error), and
 * every problem found: the files that do not parse, and what `read` reported.
 */
export async function readSideFiles<T>(
  paths: readonly string[],
  cwd: string,
  noun: string,
  read: (report: SideFileReport) => T[],
): Promise<{ items: T[]; files: number; firstFile?: string; diagnostics: Diagnostic[] }> {
  const { files, missing } = await expandPaths(paths, cwd);
  const diagnostics = missing.map((p) => fileDiagnostic(p, `the ${noun} ${p} does not exist`));
  const items: T[] = [];
  for (const f of files) {
    const parsed = await readSource(f.file, f.absolute);
    if (!parsed.ok) {
      diagnostics.push(
        ...parsed.findings.map((p) => ({
          severity: 'error' as const,
          file: f.file,
          line: p.line,
          column: p.column,
          path: '',
          message: p.message,
        })),
      );
      continue;
    }
    const report = new SideFileReport(parsed.source);
    items.push(...read(report));
    diagnostics.push(...report.diagnostics);
  }
  return {
    items,
    files: files.length,
    ...(files[0] === undefined ? {} : { firstFile: files[0].file }),
    diagnostics,
  };
}
