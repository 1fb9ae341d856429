/**
 * The exported config as YAML text, built with the `yaml` Document API so that every secret
 * placeholder carries a comment naming the variable to set, and each file opens with a short note on
 * what to do next.
 */
import { Document, isMap } from 'yaml';
import { inert } from '../inert.js';
import { inertYaml } from './inert-yaml.js';
import type { AccountExport, DocumentPlaceholder, ExportedMap } from './types.js';

/** One file of the export: a bare file name (`ip_policies.yaml`), and its text. */
export interface OutputFile {
  readonly name: string;
  readonly text: string;
}

/**
 * Where the written files find the JSON Schema, for the `yaml-language-server` line that gives
 * editors completion and checks: a path relative to the files' directory, or a URL.
 */
type SchemaReference = string;

/** The file holding everything when the export is not split, and the index file when it is. */
const singleFileName = 'acctsync.yaml';

/**
 * The words the header of every file an export writes (plain or `--env`) opens with: how a later
 * export knows the file is its own and may be replaced; any other file is the user's.
 */
const exportedWords = ' Exported by acctsync export';

/** The header's first line: the export's words, then `rest` (`. Take it over...`, ` --env NAME: ...`). */
export function exportedHeader(rest: string): string {
  return `${exportedWords}${rest}`;
}

/** Whether `text` is a file an export wrote: a line of its opening comment carries the export's words. */
export function writtenByExport(text: string): boolean {
  for (const line of text.split('\n')) {
    if (!line.startsWith('#')) return false;
    if (line.startsWith(`#${exportedWords}`)) return true;
  }
  return false;
}

function header(
  placeholders: readonly DocumentPlaceholder[],
  otherScopes: AccountExport['otherScopes'],
): string {
  const lines = [
    exportedHeader('. Take it over with: acctsync sync --adopt --dry-run, then acctsync sync --adopt.'),
  ];
  lines.push(...placeholderNotes(placeholders));
  if (otherScopes.length > 0) {
    // Scopes come from other tools' markers in the account: a comment must stay one comment line.
    const scopes = [...new Set(otherScopes.map((o) => inert(o.scope)))].sort().join(', ');
    lines.push(` Left out: ${otherScopes.length} object(s) managed by another scope (${scopes}).`);
  }
  return lines.join('\n');
}

/** The header lines listing the variables the placeholders need, if any. */
export function placeholderNotes(placeholders: readonly DocumentPlaceholder[]): string[] {
  if (placeholders.length === 0) return [];
  const variables = [...new Set(placeholders.map((p) => p.variable))].sort();
  return [
    ' Secrets the API never returns are {env: ...} placeholders. Set these variables before a sync:',
    ...variables.map((v) => `   ${inert(v)}`),
  ];
}

/** Writes each placeholder on one line, with a comment naming its variable. */
export function commentPlaceholders(doc: Document, placeholders: readonly DocumentPlaceholder[]): void {
  for (const p of placeholders) {
    const node = doc.getIn(p.path, true);
    if (!isMap(node)) continue;
    node.flow = true;
    node.comment = ` secret: set ${inert(p.variable)} (the API never returns it)`;
  }
}

function buildDocument(
  exp: AccountExport,
  maps: readonly ExportedMap[],
  placeholders: readonly DocumentPlaceholder[],
  otherScopes: AccountExport['otherScopes'],
): Document {
  const content: Record<string, unknown> = { version: 1, scope: exp.scope };
  for (const map of maps) content[map.key] = Object.fromEntries(map.entries.map((e) => [e.name, e.values]));
  // The YAML 1.1 schema quotes what YAML 1.1 tools read as other types (`yes`, `on`, `0777`).
  const doc = new Document(content, { schema: 'yaml-1.1' });
  doc.commentBefore = header(placeholders, otherScopes);
  commentPlaceholders(doc, placeholders);
  return doc;
}

function text(doc: Document, schema: SchemaReference): string {
  // lineWidth 0: never fold long values (SSH keys, CEL expressions) across lines.
  return `# yaml-language-server: $schema=${schema}\n${inertYaml(doc)}`;
}

/**
 * The YAML of an export, each file opening with the schema line. One file holding every non-empty map, or, when `split`, an index file with
 * `version`, `scope` and the notes, plus one file per non-empty map named after it (`backends.yaml`).
 */
export function renderExport(exp: AccountExport, split: boolean, schema: SchemaReference): OutputFile[] {
  const maps = exp.maps.filter((m) => m.entries.length > 0);
  if (!split) {
    const doc = buildDocument(exp, maps, exp.placeholders, exp.otherScopes);
    return [{ name: singleFileName, text: text(doc, schema) }];
  }
  const files: OutputFile[] = [
    { name: singleFileName, text: text(buildDocument(exp, [], exp.placeholders, exp.otherScopes), schema) },
  ];
  for (const map of maps) {
    const own = exp.placeholders.filter((p) => p.path[0] === map.key);
    files.push({ name: `${map.key}.yaml`, text: text(buildDocument(exp, [map], own, []), schema) });
  }
  return files;
}
