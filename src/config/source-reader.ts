/**
 * Reads the YAML files of a config in order. It returns what it found, for the load to report in
 * its one report: the files that parsed, each problem placed at its file, line and column, and the
 * files that did not parse.
 */
import { placedDiagnostic, type Diagnostic } from './diagnostic.js';
import type { ExpandedFile } from './files.js';
import { boundHeapGrowthFor } from './heap-growth.js';
import { readSource, type SourceFile } from './source.js';

export interface SourcesRead {
  /** The files that parsed, in the order given. */
  readonly sources: readonly SourceFile[];
  /** What reading and parsing found (errors and warnings), file by file. */
  readonly findings: readonly Diagnostic[];
  /** Files that did not read or parse, as diagnostics name them. */
  readonly unread: readonly string[];
}

export async function readSources(files: readonly ExpandedFile[]): Promise<SourcesRead> {
  const sources: SourceFile[] = [];
  const findings: Diagnostic[] = [];
  const unread: string[] = [];
  await boundHeapGrowthFor(files);
  for (const f of files) {
    const result = await readSource(f.file, f.absolute);
    findings.push(...result.findings.map((finding) => placedDiagnostic(f.file, finding)));
    if (result.ok) sources.push(result.source);
    else unread.push(f.file);
  }
  return { sources, findings, unread };
}
