/** Reads the YAML files of a config in order, reporting what fails and remembering which did not parse. */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { ExpandedFile } from './files.js';
import type { LoadReport } from './load-report.js';
import { readSource, sourceResult, type ReadResult, type SourceFile } from './source.js';

/**
 * The bytes of YAML from which a second thread parsing part of them (`parse-pool.ts`) repays its
 * start: measured in docs/performance.md ("Parsing on two threads").
 */
export const pooledParseBytes = 200 * 1024;

export class SourceReader {
  /** Files that did not read or parse, as diagnostics name them. */
  readonly unread: string[] = [];

  constructor(private readonly report: LoadReport) {}

  /** Arrow-bound: the environment layers read their overlay files through it. */
  readonly read = async (files: readonly ExpandedFile[]): Promise<SourceFile[]> => {
    const out: SourceFile[] = [];
    for (const [i, result] of (await readAll(files)).entries()) {
      const f = files[i] as ExpandedFile;
      this.report.addPlaced(f.file, result.findings);
      if (result.ok) out.push(result.source);
      else this.unread.push(f.file);
    }
    return out;
  };
}

async function readAll(files: readonly ExpandedFile[]): Promise<ReadResult[]> {
  if (await worthPooling(files)) {
    const { readPooled } = await import('./parse-pool.js');
    return (await readPooled(files)).map(sourceResult);
  }
  const out = [];
  for (const f of files) out.push(await readSource(f.file, f.absolute));
  return out;
}

async function worthPooling(files: readonly ExpandedFile[]): Promise<boolean> {
  if (files.length < 2 || availableParallelism() < 2) return false;
  const sizes = await Promise.all(
    files.map((f) =>
      stat(f.absolute).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.reduce((a, b) => a + b, 0) >= pooledParseBytes;
}
