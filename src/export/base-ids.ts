/**
 * `export --env NAME --move-ids`: the base's `id:` members that the environment's overlay now
 * carries are removed from the base files, with the ids of those entries' nested items (which pair
 * by their natural key under a pinned parent). Ids are per account and every environment reads the
 * base. The files are edited in place: comments, order and every other member stay as written.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isMap, isSeq, parseDocument } from 'yaml';
import { configLayout, pinMember } from '../config/index.js';

/** Removes the ids of `keys` (`ip_policies/office`) from `files`; returns the files it changed. */
export async function removeBaseIds(files: readonly string[], keys: readonly string[]): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    const doc = parseDocument(text);
    let edited = false;
    for (const key of keys) {
      const [mapKey = '', ...rest] = key.split('/');
      const name = rest.join('/');
      const entry = doc.getIn([mapKey, name], true);
      if (!isMap(entry)) continue;
      if (entry.has(pinMember)) edited = entry.delete(pinMember) || edited;
      const map = configLayout.find((m) => m.key === mapKey);
      for (const child of map?.children ?? []) {
        const items = entry.get(child.member, true);
        if (!isSeq(items)) continue;
        for (const item of items.items) if (isMap(item) && item.delete(pinMember)) edited = true;
      }
    }
    if (!edited) continue;
    await writeFile(file, doc.toString({ lineWidth: 0 }));
    changed.push(file);
  }
  return changed;
}
