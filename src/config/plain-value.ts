/**
 * A parsed document's plain data, built straight from its tree: what `doc.toJS()` gives for the
 * documents the loader accepts (no anchors, aliases or unknown tags: the structural pass refuses
 * those), without its generic machinery (a context per call, a `toJSON` dispatch per node, a
 * merge-key test per pair). Anything else (a collection as a map key) is left to `doc.toJS()`.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Pair } from 'yaml';
import { setOwn } from '../plain-object.js';
import { maxDepth } from './yaml-structure.js';

/** Returned when the tree holds something only `doc.toJS()` turns into data. */
export const unusual = Symbol('unusual');

export function plainValue(node: unknown): unknown {
  return build(node, 0, false);
}

/**
 * The plain data of a tree in which the structural pass (`yaml-structure.ts`) would find nothing:
 * no anchor, alias or duplicate key, and no collection nested `maxDepth` deep. Anything it cannot
 * vouch for (those, a null or non-scalar key) gives `unusual`, and the caller takes the long way:
 * the structural pass, then {@link plainValue}. Nearly every file is clean, and so walked once.
 */
export function cleanPlainValue(node: unknown): unknown {
  return build(node, 0, true);
}

function build(node: unknown, depth: number, checked: boolean): unknown {
  if (isScalar(node)) return checked && node.anchor !== undefined ? unusual : node.value;
  if (!isMap(node) && !isSeq(node)) return isNode(node) ? unusual : node;
  if (checked && (node.anchor !== undefined || depth >= maxDepth)) return unusual;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) if (!addPair(out, pair, depth + 1, checked)) return unusual;
    return out;
  }
  const out: unknown[] = [];
  for (const item of node.items) {
    // A pair inside a list (`[a: 1]`) is a one-member map, as yaml makes it.
    const value = isPair(item) ? pairMap(item, depth + 1, checked) : build(item, depth + 1, checked);
    if (value === unusual) return unusual;
    out.push(value);
  }
  return out;
}

function pairMap(pair: Pair, depth: number, checked: boolean): unknown {
  const out: Record<string, unknown> = {};
  return addPair(out, pair, depth, checked) ? out : unusual;
}

/**
 * Sets one member as yaml does: a scalar key as a string (null as ''), own even where inherited.
 * Checked, only a scalar key of its own (no anchor, not null) seen once in its map is taken: then
 * the member's name is the key's text as the structural pass compares it for duplicates.
 */
function addPair(
  out: Record<string, unknown>,
  { key, value }: Pair,
  depth: number,
  checked: boolean,
): boolean {
  if (checked && (!isScalar(key) || key.anchor !== undefined || key.value === null)) return false;
  const name = keyName(isScalar(key) ? key.value : isNode(key) ? unusual : key);
  if (name === undefined || (checked && Object.hasOwn(out, name))) return false;
  const member = build(value, depth, checked);
  if (member === unusual) return false;
  setOwn(out, name, member);
  return true;
}

function keyName(key: unknown): string | undefined {
  if (key === null) return '';
  switch (typeof key) {
    case 'string':
      return key;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(key);
    default:
      return undefined;
  }
}
