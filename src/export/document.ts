/**
 * The export as data and as the YAML text an export writes: `AccountExport`, what `exportAccount`
 * hands on, and the files made of it, built with the `yaml` Document API so that every secret
 * placeholder carries a comment naming the variable to set, and each file opens with a short note
 * on what to do next. One module because the parts of a written file (header, placeholder comments,
 * inert text) are shared by `renderExport` and `export --env`'s overlay (`environment.ts`), and the
 * data is what they render.
 *
 * The text stays exact (it loads back to the same values) and inert: written to a terminal or a CI
 * log (`export` without `--out`), no value can move the cursor, reorder text or give a runner a
 * workflow command. A string that holds such characters, or a line shaped like a workflow command,
 * is written double-quoted on one line with those characters as escapes.
 */
import { Document, isMap, visit } from 'yaml';
import { compare } from '../compare.js';
import { counted } from '../count.js';
import { inert, inertQuoted } from '../inert.js';
import type { Placeholder } from './values.js';

/** One exported object: its logical name and the values of its config entry. */
export interface ExportedEntry {
  readonly name: string;
  readonly values: Readonly<Record<string, unknown>>;
  /** The live object carries this scope's ownership marker (a sync made or adopted it). */
  readonly managed: boolean;
}

/** One top-level map of the config with its entries, sorted by name. */
export interface ExportedMap {
  readonly key: string;
  readonly entries: readonly ExportedEntry[];
}

/** A secret placeholder with its path in the whole document (`[map, name, ...fields]`). */
export type DocumentPlaceholder = Placeholder;

export interface AccountExport {
  readonly scope: string;
  /** The selected maps in the config's order, empty ones included. */
  readonly maps: readonly ExportedMap[];
  /** Secrets the user must provide through these variables before a sync. */
  readonly placeholders: readonly DocumentPlaceholder[];
  /** Objects left out because another scope manages them, by id. */
  readonly otherScopes: ReadonlyArray<{ readonly id: string; readonly scope: string }>;
  /** Things to fix before a sync can take the objects over (metadata too long for the marker). */
  readonly warnings: readonly string[];
}

/** What {@link inert} changes, plus a line break that could start a command-shaped line. */
function needsEscapes(value: string): boolean {
  return inert(value) !== value || /^\s*::/m.test(value);
}

/** The document as text, every string that needs it double-quoted with escapes. */
export function inertYaml(doc: Document): string {
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && needsEscapes(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  // One line per string: a line break inside it stays `\n` rather than starting a new line.
  const text = doc.toString({ lineWidth: 0, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER });
  // What the library leaves raw inside double quotes (C1 controls, bidi marks, `##[`).
  return inertQuoted(text);
}

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
    const scopes = [...new Set(otherScopes.map((o) => inert(o.scope)))].sort(compare).join(', ');
    lines.push(
      ` Left out: ${counted(otherScopes.length, 'object', 'objects')} managed by another scope (${scopes}).`,
    );
  }
  return lines.join('\n');
}

/** The header lines listing the variables the placeholders need, if any. */
export function placeholderNotes(placeholders: readonly DocumentPlaceholder[]): string[] {
  if (placeholders.length === 0) return [];
  const variables = [...new Set(placeholders.map((p) => p.variable))].sort(compare);
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
