/**
 * Reads one YAML file into plain data and the places of its entries; the document tree that
 * remembers where every other value came from is parsed again only when a message needs it. Hostile input
 * (huge, binary, not UTF-8, empty, tabs, duplicate keys, anchors, deep nesting) becomes findings,
 * never an exception, so one broken file cannot hide the problems of the others.
 */
import { readFile, stat } from 'node:fs/promises';
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { describeSystemError, isSystemError } from '../errors.js';
import type { DocPath, Finding } from './diagnostic.js';
import { entryPathKey, entryPlaces, type EntryPlaces } from './entry-places.js';
import { fastParse } from './fast-plain.js';
import { cleanPlainValue, plainValue, unusual } from './plain-value.js';
import { structuralFindings } from './yaml-structure.js';

/** Files above this size are refused unread: desired state is text a person reviews. */
export const maxFileBytes = 5 * 1024 * 1024;

/** A parsed file, ready for position lookups. */
export interface SourceFile {
  /** The file as diagnostics name it. */
  readonly file: string;
  readonly absolute: string;
  readonly text: string;
  /** The document tree with every position, parsed again on first use (after the load, it is let go). */
  readonly doc: Document;
  readonly lineCounter: LineCounter;
  /** The document as plain data. */
  readonly value: unknown;
  /** Where each entry starts, known without the tree. */
  readonly places: EntryPlaces;
}

/** Where a value was written: a file and the path inside its document. */
export interface Place {
  readonly source: SourceFile;
  readonly path: DocPath;
}

/** A finding in a particular file. */
export interface FileFinding extends Finding {
  readonly source: SourceFile;
}

/** A finding with its position already known (problems of the file as a whole, or from the parser). */
export interface PlacedFinding extends Finding {
  readonly line: number;
  readonly column: number;
}

type ReadResult =
  | { readonly ok: true; readonly source: SourceFile; readonly findings: readonly PlacedFinding[] }
  | { readonly ok: false; readonly findings: readonly PlacedFinding[] };

const atStart = { path: [], line: 1, column: 1 } as const;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Reads and parses `absolute`; `file` is the name used in diagnostics. */
export async function readSource(file: string, absolute: string): Promise<ReadResult> {
  let bytes: Buffer;
  try {
    const size = (await stat(absolute)).size;
    if (size > maxFileBytes) {
      return refuse(`the file is ${megabytes(size)}; the limit is ${megabytes(maxFileBytes)} per file`, {
        hint: 'split the configuration into several files, or check that this is the file you meant',
      });
    }
    bytes = await readFile(absolute);
  } catch (err) {
    if (!isSystemError(err)) throw err;
    return refuse(`cannot read the file: ${describeSystemError(err)}`);
  }
  if (bytes.includes(0)) {
    return refuse('the file is binary (it contains NUL bytes), not YAML text');
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return refuse('the file is not valid UTF-8 text', { hint: 'save it as UTF-8' });
  }
  return parseSource(file, absolute, text);
}

function refuse(message: string, extra: { hint?: string } = {}): ReadResult {
  return { ok: false, findings: [{ ...atStart, message, ...extra }] };
}

const parseOptions = {
  prettyErrors: false,
  // Duplicates are found below, with a message naming the first occurrence.
  uniqueKeys: false,
  // The parser's warnings (an unknown tag) would go to stderr; they are reported below instead.
  logLevel: 'error',
} as const;

/** A parsed file whose document tree is parsed again from its text when a lookup needs it. */
function sourceFile(parsed: Omit<SourceFile, 'doc'>): SourceFile {
  let doc: Document | undefined;
  return {
    ...parsed,
    get doc(): Document {
      doc ??= parseDocument(parsed.text, parseOptions);
      return doc;
    },
  };
}

/** Parses YAML text into plain data and entry places, or the findings that stop it. */
export function parseSource(file: string, absolute: string, text: string): ReadResult {
  // A clean file is read from the parser's tokens, without composing the document tree.
  const fastCounter = new LineCounter();
  const fast = fastParse(text, fastCounter);
  if (fast !== unusual) {
    const source = sourceFile({ file, absolute, text, lineCounter: fastCounter, ...fast });
    return { ok: true, source, findings: [] };
  }
  return composedSource(file, absolute, text);
}

/** {@link parseSource} through the document tree: what a file the fast path does not vouch for takes. */
export function composedSource(file: string, absolute: string, text: string): ReadResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...parseOptions, lineCounter });
  const placeAt = (offset: number): { line: number; column: number } => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };

  const findings: PlacedFinding[] = [];
  const seenCodes = new Set<string>();
  for (const err of doc.errors) {
    // The parser repeats some errors once per nesting level; one is enough.
    if (err.code === 'RESOURCE_EXHAUSTION' && seenCodes.has(err.code)) continue;
    seenCodes.add(err.code);
    findings.push({ path: [], ...placeAt(err.pos[0]), ...parserMessage(err.code, err.message) });
  }
  // A tag the parser does not know (`!!js/function`, `!secret`) would silently become a string.
  for (const warning of doc.warnings) {
    if (warning.code !== 'TAG_RESOLVE_FAILED') continue;
    findings.push({
      path: [],
      ...placeAt(warning.pos[0]),
      message: `the YAML tag ${text.slice(warning.pos[0], warning.pos[1]).split(/\s/)[0] ?? ''} is not supported`,
      hint: 'remove the tag; use {env: NAME} or {file: path} to take a value from elsewhere',
    });
  }
  if (findings.length > 0) return { ok: false, findings };

  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return refuse('the file is empty', {
      hint: 'write at least `version: 1`, or delete the file',
    });
  }

  // A clean file is walked once; anything else is walked by the structural pass first, as always.
  let value = cleanPlainValue(doc.contents);
  if (value === unusual) {
    findings.push(...structuralFindings(doc, text, placeAt));
    if (findings.length > 0) return { ok: false, findings };
    value = plainOf(doc);
  }

  const source = sourceFile({ file, absolute, text, lineCounter, value, places: entryPlaces(doc) });
  return { ok: true, source, findings: [] };
}

function plainOf(doc: Document): unknown {
  const value = plainValue(doc.contents);
  return value === unusual ? doc.toJS() : value;
}

function parserMessage(code: string, message: string): { message: string; hint?: string } {
  switch (code) {
    case 'TAB_AS_INDENT':
      return {
        message: 'a tab is used for indentation; YAML allows only spaces',
        hint: 'indent with spaces',
      };
    case 'RESOURCE_EXHAUSTION':
      return { message: 'the document nests too deeply to be a configuration' };
    case 'MULTIPLE_DOCS':
      return {
        message: 'the file holds several YAML documents',
        hint: 'remove the `---` separator, or split the documents into separate files',
      };
    default:
      return { message: `YAML syntax error: ${message}` };
  }
}

/** Pairs of each YAML map by key, built on first lookup: a config map can hold thousands of entries. */
const pairIndex = new WeakMap<object, Map<string, Pair>>();

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  let index = pairIndex.get(map);
  if (index === undefined) {
    index = new Map();
    for (const p of map.items) {
      // The first occurrence wins, as a linear search would find it (duplicates are errors anyway).
      if (isScalar(p.key) && !index.has(String(p.key.value))) index.set(String(p.key.value), p);
    }
    pairIndex.set(map, index);
  }
  return index.get(key);
}

/** The node at `path` (or the deepest one found on the way) and the key node naming it. */
function nodeAt(source: SourceFile, path: DocPath): { node: unknown; keyNode: unknown; found: boolean } {
  let node: unknown = source.doc.contents;
  let keyNode: unknown;
  for (const seg of path) {
    if (isMap(node)) {
      const pair = pairOf(node, String(seg));
      if (!pair) return { node, keyNode, found: false };
      keyNode = pair.key;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
      keyNode = undefined;
      node = node.items[seg];
    } else {
      return { node, keyNode, found: false };
    }
  }
  return { node, keyNode, found: true };
}

/**
 * The line and column of the value at `path`, or of its key when `atKey`. A path that does not
 * exist (a missing member) resolves to the key of its deepest existing ancestor.
 */
export function locate(source: SourceFile, path: DocPath, atKey = false): { line: number; column: number } {
  const entryKey = atKey ? entryPathKey(path) : undefined;
  let offset = entryKey === undefined ? undefined : source.places.get(entryKey);
  if (offset === undefined) {
    const { node, keyNode, found } = nodeAt(source, path);
    const target = (!found || atKey) && keyNode !== undefined ? keyNode : node;
    offset = (target as Node | null | undefined)?.range?.[0] ?? 0;
  }
  const pos = source.lineCounter.linePos(offset);
  return { line: pos.line, column: pos.col };
}

/** The text offsets of the scalar written at `path`, when one is written there. */
export function scalarSpan(source: SourceFile, path: DocPath): { start: number; end: number } | undefined {
  const { node, found } = nodeAt(source, path);
  if (!found || !isScalar(node) || node.range === undefined || node.range === null) return undefined;
  return { start: node.range[0], end: node.range[1] };
}
