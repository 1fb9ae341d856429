import { counted } from '../count.js';
import { compare } from '../compare.js';

/** The lines an export prints for the `{env: ...}` placeholders it wrote: every variable to set, by name. */
export function variableLines(variables: readonly string[]): string[] {
  const unique = [...new Set(variables)].sort(compare);
  if (unique.length === 0) return [];
  return [
    `acctsync: set ${counted(unique.length, 'secret variable', 'secret variables')} before a plan or sync (in CI, one secret each; docs/export.md):`,
    ...unique.map((v) => `acctsync:   ${v}`),
  ];
}
