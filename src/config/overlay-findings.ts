/**
 * What an environment's overlays get wrong: `patch:` or `drop:` in a base file, a patch or drop of
 * an entry the base does not define, and two files of one environment patching one value.
 */
import { declaredEntries, type Layers } from './layers.js';
import { isPlainObject } from '../plain-object.js';
import type { PatchConflict } from './overlay.js';
import { locate, type FileFinding, type Place, type SourceFile } from './source.js';
import { closest } from '../suggest.js';

const overlaySections = ['patch', 'drop'] as const;

/** `patch:` and `drop:` change a base: in a base file they have nothing to change. */
export function overlayOnlySections(source: SourceFile): FileFinding[] {
  if (!isPlainObject(source.value)) return [];
  const value = source.value;
  return overlaySections
    .filter((section) => section in value)
    .map((section) => ({
      source,
      path: [section],
      atKey: true,
      message: `${section}: belongs in an environment's overlay file; this file is part of the base`,
      hint: 'list this file under environments.<name>.paths, or write the objects directly',
    }));
}

/** Where each entry is declared, by key (`ip_policies/office`). */
function entryPlaces(sources: readonly SourceFile[]): Map<string, Place> {
  const out = new Map<string, Place>();
  for (const { key, map, name, source } of declaredEntries(sources)) {
    if (!out.has(key)) out.set(key, { source, path: [map, name] });
  }
  return out;
}

function where(place: Place): string {
  return `${place.source.file}:${locate(place.source, place.path, true).line}`;
}

/** Patches and drops of entries that no file declares: an error at the overlay, naming the nearest base entry. */
export function missingTargets(sources: readonly SourceFile[], layers: Layers): FileFinding[] {
  // Without overlays there is nothing to look up, and the index of every entry would be garbage.
  if (layers.patches.size === 0 && layers.drops.length === 0) return [];
  const declared = entryPlaces(sources);
  const targets: Array<{ key: string; place: Place; verb: string }> = [
    ...[...layers.patches].flatMap(([key, list]) =>
      list.map((p) => ({ key, place: p.place, verb: 'patches' })),
    ),
    ...layers.drops.map((d) => ({ key: d.key, place: d.place, verb: 'drops' })),
  ];
  return targets
    .filter((t) => !declared.has(t.key))
    .map((t) => {
      const map = t.key.slice(0, t.key.indexOf('/'));
      const near = closest(
        t.key,
        [...declared.keys()].filter((k) => k.startsWith(`${map}/`)),
      );
      const nearPlace = near === undefined ? undefined : declared.get(near);
      return {
        source: t.place.source,
        path: t.place.path,
        atKey: true,
        message: `this overlay ${t.verb} ${t.key}, which the base does not define`,
        hint:
          near !== undefined && nearPlace !== undefined
            ? `did you mean ${near} (${where(nearPlace)})?`
            : `define ${t.key} in the base, or add it in this overlay under ${map}:`,
      };
    });
}

/** Two files of one environment setting one value. */
export function conflictFinding(c: PatchConflict): FileFinding {
  return {
    source: c.second.source,
    path: c.second.path,
    atKey: true,
    message: `this value is also patched at ${where(c.first)}, in another file of the same environment`,
    hint: 'patch each value in one overlay file only',
  };
}
