/**
 * The editor's schema line, `# yaml-language-server: $schema=PATH`: a path relative to the file,
 * which breaks silently when the file moves (into `base/`, one directory deeper). The loader says
 * so, with the path that works from where the file is now.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { PlacedFinding, SourceFile } from './source.js';

const schemaLine = /^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$/m;
const installedSchema = join('node_modules', 'acctsync', 'schemas', 'acctsync.schema.json');

/** The installed package's schema in the nearest `node_modules/` above `dir`, if any. */
function nearestInstalledSchema(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, installedSchema);
    if (existsSync(candidate)) return candidate;
    if (dirname(at) === at) return undefined;
  }
}

/** A warning when the file's `$schema` path leads nowhere (a URL is left alone). */
export function schemaCommentFindings(source: SourceFile): PlacedFinding[] {
  const match = schemaLine.exec(source.text);
  const reference = match?.[1];
  if (match === null || reference === undefined || /^[a-z][a-z0-9+.-]*:/i.test(reference)) return [];
  const dir = dirname(source.absolute);
  if (existsSync(resolve(dir, reference))) return [];
  const found = nearestInstalledSchema(dir);
  return [
    {
      severity: 'warning',
      path: [],
      line: source.text.slice(0, match.index).split('\n').length,
      column: 1,
      message: `the $schema path ${reference} leads to no file from here, so editors check nothing`,
      hint:
        found === undefined
          ? `point it at ${installedSchema.split('\\').join('/')}, relative to this file`
          : `write $schema=${relative(dir, found).split('\\').join('/')}`,
    },
  ];
}
