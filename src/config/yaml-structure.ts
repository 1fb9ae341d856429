/** What the loader refuses in a file's YAML structure, found on its document tree. */
import {
  isAlias,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  type Document,
  type Node,
  type YAMLMap,
} from 'yaml';
import type { Finding } from './diagnostic.js';

type PlacedFinding = Finding & { readonly line: number; readonly column: number };

/** Deeper than any real config; stops pathological input before it reaches recursive code. */
export const maxDepth = 64;

/**
 * Duplicate keys, anchors, aliases, custom tags and excessive depth. Anchors and aliases are refused
 * because each object should read on its own in review, and because aliases are the classic way to
 * blow up a document's size.
 */
export function structuralFindings(
  doc: Document,
  text: string,
  placeAt: (offset: number) => { line: number; column: number },
): PlacedFinding[] {
  const out: PlacedFinding[] = [];
  const at = (node: Node | null | undefined) => placeAt(node?.range?.[0] ?? 0);
  // A walk of its own rather than yaml's `visit`, which copies and freezes the path at every
  // collection and pair: the same order of findings for a fraction of the garbage.
  const walk = (node: unknown, depth: number): boolean => {
    if (isAlias(node)) {
      out.push({
        path: [],
        ...at(node),
        message: `alias *${node.source} is not supported`,
        hint: 'write the value out in full; anchors and aliases are not allowed in acctsync files',
      });
      return true;
    }
    if (!isNode(node)) return true;
    if (node.anchor) {
      // The node starts after its `&name` (often on the next line): point at the anchor itself.
      const start = node.range?.[0] ?? 0;
      const anchorAt = text.lastIndexOf(`&${node.anchor}`, start);
      out.push({
        path: [],
        ...placeAt(anchorAt >= 0 ? anchorAt : start),
        message: `anchor &${node.anchor} is not supported`,
        hint: 'write each value out in full; anchors and aliases are not allowed in acctsync files',
      });
    }
    if (!isCollection(node)) return true;
    if (depth >= maxDepth) {
      out.push({ path: [], ...at(node), message: `the document nests deeper than ${maxDepth} levels` });
      return false;
    }
    if (isMap(node)) out.push(...duplicateKeys(node, at));
    for (const item of node.items as unknown[]) {
      const more = isPair(item)
        ? walk(item.key, depth + 1) && walk(item.value, depth + 1)
        : walk(item, depth + 1);
      if (!more) return false;
    }
    return true;
  };
  walk(doc.contents, 0);
  return out;
}

function duplicateKeys(
  map: YAMLMap,
  at: (node: Node | null | undefined) => { line: number; column: number },
): PlacedFinding[] {
  const out: PlacedFinding[] = [];
  const first = new Map<string, Node>();
  for (const pair of map.items) {
    const keyNode = pair.key as Node | null;
    const key = isScalar(keyNode) ? String(keyNode.value) : undefined;
    if (key === undefined) continue;
    const previous = first.get(key);
    if (previous) {
      out.push({
        path: [],
        ...at(keyNode),
        message: `duplicate key ${key}: it is already defined at line ${at(previous).line}`,
        hint: 'each key may appear once in a map; merge the two entries',
      });
    } else if (keyNode) first.set(key, keyNode);
  }
  return out;
}
