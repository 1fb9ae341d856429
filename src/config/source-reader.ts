/** Reads the YAML files of a config in order, reporting what fails and remembering which did not parse. */
import type { ExpandedFile } from './files.js';
import { boundHeapGrowthFor } from './heap-growth.js';
import type { LoadReport } from './load-report.js';
import { readSource, type SourceFile } from './source.js';

export class SourceReader {
  /** Files that did not read or parse, as diagnostics name them. */
  readonly unread: string[] = [];

  constructor(private readonly report: LoadReport) {}

  /** Arrow-bound: the environment layers read their overlay files through it. */
  readonly read = async (files: readonly ExpandedFile[]): Promise<SourceFile[]> => {
    const out: SourceFile[] = [];
    await boundHeapGrowthFor(files);
    for (const f of files) {
      const result = await readSource(f.file, f.absolute);
      this.report.addPlaced(f.file, result.findings);
      if (result.ok) out.push(result.source);
      else this.unread.push(f.file);
    }
    return out;
  };
}
