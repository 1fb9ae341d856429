/**
 * A parsed document's plain data, built straight from its tree: what `doc.toJS()` gives for the
 * documents the loader accepts (no anchors, aliases or unknown tags: the structural pass refuses
 * those), without its generic machinery (a context per call, a `toJSON` dispatch per node, a
 * merge-key test per pair). Anything else (a collection as a map key) is left to `doc.toJS()`.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Pair } from 'yaml';

/** Returned when the tree holds something only `doc.toJS()` turns into data. */
export const unusual = Symbol('unusual');

export function plainValue(node: unknown): unknown {
  if (isScalar(node)) return node.value;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) if (!addPair(out, pair)) return unusual;
    return out;
  }
  if (isSeq(node)) {
    const out: unknown[] = [];
    for (const item of node.items) {
      // A pair inside a list (`[a: 1]`) is a one-member map, as yaml makes it.
      const value = isPair(item) ? pairMap(item) : plainValue(item);
      if (value === unusual) return unusual;
      out.push(value);
    }
    return out;
  }
  return isNode(node) ? unusual : node;
}

function pairMap(pair: Pair): unknown {
  const out: Record<string, unknown> = {};
  return addPair(out, pair) ? out : unusual;
}

/** Sets one member as yaml does: a scalar key as a string (null as ''), own even where inherited. */
function addPair(out: Record<string, unknown>, { key, value }: Pair): boolean {
  const name = keyName(isScalar(key) ? key.value : isNode(key) ? unusual : key);
  if (name === undefined) return false;
  const member = plainValue(value);
  if (member === unusual) return false;
  if (name in out)
    Object.defineProperty(out, name, { value: member, writable: true, enumerable: true, configurable: true });
  else out[name] = member;
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
