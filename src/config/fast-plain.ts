/**
 * SECOND PATH (issue 46): kept for the wall time of a 10,000-object plan; the first path is
 * `composedSource` (`source.ts`), and `test/config/fast-parse.test.ts` holds the two equal. Measured by `npm run bench -- --only second-paths`
 * (docs/performance.md, "Second paths").
 *
 * The plain data and entry places of a clean file, read straight from the parser's token tree (its
 * CST) without composing the document tree: the composing is a third of the parse, and a clean file
 * never needs the tree (messages parse it again from the text). Only the shapes written by people
 * and generators are taken: block maps and lists, one-line flow lists of scalars, scalars of every
 * style, comments between entries. Anything else (an error token, an anchor, alias or tag, an
 * explicit or non-string key, a duplicate key, a merge key, a directive, several documents, a flow
 * map, nesting `maxDepth` deep, a tab or CR anywhere) gives `unusual`, and the caller parses the
 * document as before; every check the composer makes on the shapes taken is made here too.
 */
import { CST, Document, isScalar, Parser, type LineCounter, type ScalarTag } from 'yaml';
import { setOwn } from '../plain-object.js';
import type { EntryPlaces } from './entry-places.js';
import { unusual } from './plain-value.js';
import { maxDepth } from './yaml-structure.js';

interface FastParse {
  readonly value: unknown;
  readonly places: EntryPlaces;
}

type Places = Map<string, number>;

/** The core schema's scalar tags that resolve plain scalars, in the order the composer tries them. */
const plainTags = (new Document().schema.tags as ScalarTag[]).filter(
  (tag) => tag.default === true && tag.test !== undefined && !('collection' in tag),
);
const resolveOptions = new Document().options;
/** The first characters any of {@link plainTags} accepts; any other plain scalar is a string. */
const typedStart = /^[~nNtTfF0-9+\-.]/;
const noop = (): void => undefined;

/** `text` as plain data and entry places, or `unusual`; `lineCounter` is complete only when it succeeds. */
export function fastParse(text: string, lineCounter: LineCounter): FastParse | typeof unusual {
  if (text.includes('\t') || text.includes('\r')) return unusual;
  let doc: CST.Document | undefined;
  for (const token of new Parser(lineCounter.addNewLine).parse(text)) {
    if (token.type === 'document' && doc === undefined) doc = token;
    else if (!isBlank(token)) return unusual;
  }
  if (doc === undefined || doc.start.length > 0 || doc.value?.type !== 'block-map') return unusual;
  if (doc.end !== undefined && !doc.end.every(isBlank)) return unusual;
  const places: Places = new Map();
  const value = blockMap(doc.value, 0, places, undefined);
  return value === unusual ? unusual : { value, places };
}

/** As `entryPlaces` records them: the first occurrence of a path wins. */
function place(places: Places, path: string, offset: number): void {
  if (!places.has(path)) places.set(path, offset);
}

function isBlank(token: { readonly type: string }): boolean {
  return token.type === 'space' || token.type === 'newline' || token.type === 'comment';
}

let failed = false;
const onError = (): void => {
  failed = true;
};

/** A scalar's value as the core schema resolves it, or `unusual` when the scalar has an error. */
function scalar(token: CST.FlowScalar | CST.BlockScalar): unknown {
  failed = false;
  const resolved = CST.resolveAsScalar(token, true, onError);
  if (failed || resolved === null) return unusual;
  return token.type === 'scalar' ? plainScalar(resolved.value) : resolved.value;
}

function plainScalar(source: string): unknown {
  if (source !== '' && !typedStart.test(source)) return source;
  for (const tag of plainTags) {
    if (!tag.test!.test(source)) continue;
    const value: unknown = tag.resolve(source, noop, resolveOptions);
    return isScalar(value) ? value.value : value;
  }
  return source;
}

/**
 * The value of `token` at `depth`. `at` is the entry path so far while the path can still lead to
 * an entry place (`entry-places.ts`: section map, entry map, list), undefined otherwise.
 */
function node(token: CST.Token | undefined, depth: number, places: Places, at: string | undefined): unknown {
  switch (token?.type) {
    case undefined:
      return null;
    case 'scalar':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
    case 'block-scalar':
      return scalar(token);
    case 'block-map':
      return depth >= maxDepth ? unusual : blockMap(token, depth, places, at);
    case 'block-seq':
      return depth >= maxDepth ? unusual : blockSeq(token, depth, places, at);
    case 'flow-collection':
      return depth >= maxDepth ? unusual : flowCollection(token, depth, places, at);
    default:
      return unusual;
  }
}

function blockMap(map: CST.BlockMap, depth: number, places: Places, at: string | undefined): unknown {
  const out: Record<string, unknown> = {};
  const { items } = map;
  for (let i = 0; i < items.length; i++) {
    const { start, key, sep, value } = items[i]!;
    if (!start.every(isBlank)) return unusual;
    // Comment lines after the last member.
    if (!key && sep === undefined && value === undefined && i === items.length - 1) break;
    if (!key || sep === undefined || !('indent' in key) || key.indent !== map.indent) return unusual;
    const name = keyName(key);
    const newline = valueSeparator(sep, start.at(-1)?.offset ?? key.offset);
    if (name === undefined || newline === undefined || Object.hasOwn(out, name)) return unusual;
    if ((value?.type === 'block-map' || value?.type === 'block-seq') && !newline) return unusual;
    const member = node(value, depth + 1, places, memberAt(places, depth, at, name, key.offset, value));
    if (member === unusual) return unusual;
    setOwn(out, name, member);
  }
  return out;
}

/**
 * The entry path of a member's value while it can still hold entry places (a section's map, an
 * entry's value, a member's list), after recording an entry's own place.
 */
function memberAt(
  places: Places,
  depth: number,
  at: string | undefined,
  name: string,
  offset: number,
  value: CST.Token | undefined,
): string | undefined {
  if (depth === 0) return value?.type === 'block-map' || isFlowMap(value) ? name : undefined;
  if (depth > 2 || at === undefined) return undefined;
  const path = `${at}\u0000${name}`;
  if (depth === 1) place(places, path, offset);
  return path;
}

function isFlowMap(token: CST.Token | undefined): boolean {
  return token?.type === 'flow-collection' && token.start.source === '{';
}

/** A key's name when it is a one-line string scalar other than the merge key. */
function keyName(key: CST.Token): string | undefined {
  if (key.type !== 'scalar' && key.type !== 'single-quoted-scalar' && key.type !== 'double-quoted-scalar')
    return undefined;
  if (key.source.includes('\n') || key.end?.some((t) => t.type === 'newline')) return undefined;
  const name = scalar(key);
  return typeof name === 'string' && name !== '<<' ? name : undefined;
}

/**
 * Whether the value starts on a new line, when the separator is `:` with spaces, newlines and
 * comments (each after white space) after it; undefined otherwise.
 */
function valueSeparator(sep: readonly CST.SourceToken[], keyStart: number): boolean | undefined {
  let found = false;
  let space = false;
  let newline = false;
  for (const token of sep) {
    if (token.type === 'map-value-ind') {
      // The composer's limit on an implicit key's length, with a margin.
      if (found || token.offset - keyStart > 1000) return undefined;
      found = true;
      space = false;
    } else if (token.type === 'space') space = true;
    else if (token.type === 'newline' && found) newline = space = true;
    else if (token.type !== 'comment' || !found || !space) return undefined;
  }
  return found ? newline : undefined;
}

function blockSeq(seq: CST.BlockSequence, depth: number, places: Places, at: string | undefined): unknown {
  const out: unknown[] = [];
  const { items } = seq;
  for (let i = 0; i < items.length; i++) {
    const { start, value } = items[i]!;
    const found = itemIndicator(start);
    if (found === undefined) return unusual;
    if (!found && value === undefined && i === items.length - 1) break;
    if (!found || value === undefined) return unusual;
    if (depth === 3 && at !== undefined) place(places, `${at}\u0000${out.length}`, value.offset);
    const item = node(value, depth + 1, places, undefined);
    if (item === unusual) return unusual;
    out.push(item);
  }
  return out;
}

/** Whether `start` holds the `-` indicator, with blanks around it; undefined for anything else. */
function itemIndicator(start: readonly CST.SourceToken[]): boolean | undefined {
  let found = false;
  let space = true;
  for (const token of start) {
    if (token.type === 'seq-item-ind') {
      if (found) return undefined;
      found = true;
      space = false;
    } else if (token.type === 'space' || token.type === 'newline') space = true;
    else if (token.type !== 'comment' || !space) return undefined;
  }
  return found;
}

/** A one-line flow list or map of scalars and one-line flow collections (`[a, 'b']`, `{ a: 1 }`). */
function flowCollection(
  flow: CST.FlowCollection,
  depth: number,
  places: Places,
  at: string | undefined,
): unknown {
  const isMap = flow.start.source === '{';
  const end = isMap ? 'flow-map-end' : 'flow-seq-end';
  if (flow.end[0]?.type !== end || !trailing(flow.end)) return unusual;
  const out: Record<string, unknown> | unknown[] = isMap ? {} : [];
  for (let i = 0; i < flow.items.length; i++) {
    const { start, key, sep, value } = flow.items[i]!;
    if (!flowStart(start, i) || !flowValue(value)) return unusual;
    if (Array.isArray(out)) {
      if (key !== undefined || sep !== undefined) return unusual;
      if (depth === 3 && at !== undefined) place(places, `${at}\u0000${out.length}`, value.offset);
      const item = node(value, depth + 1, places, undefined);
      if (item === unusual) return unusual;
      out.push(item);
      continue;
    }
    const name = key ? keyName(key) : undefined;
    if (!key || name === undefined || !flowSeparator(sep) || Object.hasOwn(out, name)) return unusual;
    if ((key as CST.FlowScalar).end?.some((t) => t.type !== 'space')) return unusual;
    const member = node(value, depth + 1, places, memberAt(places, depth, at, name, key.offset, value));
    if (member === unusual) return unusual;
    setOwn(out, name, member);
  }
  return out;
}

/** An item's start: spaces, and one comma before every item but the first. */
function flowStart(start: readonly CST.SourceToken[], index: number): boolean {
  let commas = 0;
  for (const token of start) {
    if (token.type === 'comma') commas++;
    else if (token.type !== 'space') return false;
  }
  return commas === (index === 0 ? 0 : 1);
}

/** `:` with spaces around it. */
function flowSeparator(sep: readonly CST.SourceToken[] | undefined): boolean {
  let found = 0;
  for (const token of sep ?? []) {
    if (token.type === 'map-value-ind') found++;
    else if (token.type !== 'space') return false;
  }
  return found === 1;
}

/** A one-line flow scalar or flow collection, with nothing but spaces after it. */
function flowValue(value: CST.Token | undefined): value is CST.FlowScalar | CST.FlowCollection {
  switch (value?.type) {
    case 'scalar':
    case 'single-quoted-scalar':
    case 'double-quoted-scalar':
      return !value.source.includes('\n') && (value.end ?? []).every((t) => t.type === 'space');
    case 'flow-collection':
      return value.end.slice(1).every((t) => t.type === 'space');
    default:
      return false;
  }
}

/** After `]` or `}`: blanks, a comment only after white space. */
function trailing(end: readonly CST.SourceToken[]): boolean {
  let space = false;
  for (const token of end.slice(1)) {
    if (token.type === 'space' || token.type === 'newline') space = true;
    else if (token.type !== 'comment' || !space) return false;
  }
  return true;
}
