/**
 * Where each entry of a config file starts, kept when the file is parsed so that its document tree
 * can be let go: every desired object names its entry's line (the key of a map entry, or the item of
 * a nested list such as a rule or a route), and a 100,000-object config's trees would otherwise be
 * held all at once. Anything else a message points at re-parses its file (`source.ts`).
 */
import { isMap, isScalar, isSeq, type Document } from 'yaml';
import type { DocPath } from './diagnostic.js';

/** Text offsets by entry path ({@link entryPathKey}). */
export type EntryPlaces = ReadonlyMap<string, number>;

/** The key of a path of two map keys (`ip_policies`, `office`) or of a nested item (`…`, `rules`, 0). */
export function entryPathKey(path: DocPath): string | undefined {
  if (path.length === 2 && typeof path[1] === 'string') return `${path[0]}\u0000${path[1]}`;
  if (path.length === 4 && typeof path[3] === 'number')
    return `${path[0]}\u0000${path[1]}\u0000${path[2]}\u0000${path[3]}`;
  return undefined;
}

/**
 * The offset of each entry's key (`section: { name: … }`, first occurrence) and of each item of the
 * lists an entry holds: where `locate(path, atKey = true)` points for those paths.
 */
export function entryPlaces(doc: Document): EntryPlaces {
  const places = new Map<string, number>();
  if (!isMap(doc.contents)) return places;
  for (const section of doc.contents.items) {
    if (!isScalar(section.key) || !isMap(section.value)) continue;
    const s = String(section.key.value);
    for (const entry of section.value.items) {
      if (!isScalar(entry.key) || entry.key.range == null) continue;
      const e = `${s}\u0000${String(entry.key.value)}`;
      if (places.has(e)) continue;
      places.set(e, entry.key.range[0]);
      if (!isMap(entry.value)) continue;
      for (const member of entry.value.items) {
        if (!isScalar(member.key) || !isSeq(member.value)) continue;
        const m = `${e}\u0000${String(member.key.value)}`;
        member.value.items.forEach((item, i) => {
          const at = (item as { range?: readonly number[] | null } | null)?.range?.[0];
          if (at !== undefined && !places.has(`${m}\u0000${i}`)) places.set(`${m}\u0000${i}`, at);
        });
      }
    }
  }
  return places;
}
