/**
 * The diagnostics of one load, in the order the passes find them, each placed at its file, line
 * and column.
 */
import { isUnder } from '../path-prefix.js';
import { placedDiagnostic, type Diagnostic, type DocPath, type Finding } from './diagnostic.js';
import { locateInScalar } from './scalar-position.js';
import { locate, type FileFinding, type PlacedFinding, type SourceFile } from './source.js';

export class LoadReport {
  readonly diagnostics: Diagnostic[] = [];
  /** The values left unchecked (`{env: NAME}`), each once, in the order met. */
  readonly unchecked = new Set<string>();
  /** Paths already reported per file: later passes do not repeat a problem there or below it. */
  private readonly reported = new Map<SourceFile, DocPath[]>();

  add(diagnostics: readonly Diagnostic[]): void {
    this.diagnostics.push(...diagnostics);
  }

  /** Findings whose position is already known (a file's schema comment). */
  addPlaced(file: string, findings: readonly PlacedFinding[]): void {
    this.add(findings.map((f) => placedDiagnostic(file, f)));
  }

  addFindings(source: SourceFile, findings: readonly Finding[]): void {
    const seen = this.reported.get(source) ?? [];
    this.reported.set(source, seen);
    for (const f of findings) {
      if (f.unchecked !== undefined) {
        // What a later pass finds in the value it could not read is no finding either.
        seen.push(f.path);
        this.unchecked.add(f.unchecked);
        continue;
      }
      const isError = (f.severity ?? 'error') === 'error';
      if (isError && seen.some((p) => isUnder(f.path, p))) continue;
      if (isError) seen.push(f.path);
      const at =
        f.offset === undefined ? locate(source, f.path, f.atKey) : locateInScalar(source, f.path, f.offset);
      this.diagnostics.push(placedDiagnostic(source.file, { ...f, ...at }));
    }
  }

  /** Arrow-bound: the environment layers report through it as a callback. */
  readonly addFileFindings = (findings: readonly FileFinding[]): void => {
    for (const f of findings) this.addFindings(f.source, [f]);
  };
}
