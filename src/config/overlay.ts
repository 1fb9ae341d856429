/**
 * Overlays: an environment's files change base objects only with explicit intent. `patch:` merges
 * into a base entry by logical name (RFC 7396 JSON Merge Patch: maps merge, anything else replaces,
 * `null` removes), `drop:` removes a base entry. Every merged value remembers the file and place
 * that wrote it, so a diagnostic about it points there, not at the base.
 */
import { isUnder } from '../path-prefix.js';
import type { DocPath } from './diagnostic.js';
import type { Place } from './source.js';
import { isPlainObject } from '../plain-object.js';

/** A value an overlay wrote into an entry: `prefix` (relative to the entry) now comes from `place`. */
interface Origin {
  readonly prefix: DocPath;
  readonly place: Place;
  /** The environment whose overlay wrote it (its own files may not disagree with each other). */
  readonly layer: string;
}

/** One `patch:` entry of an overlay file. */
export interface EntryPatch {
  readonly place: Place;
  readonly value: Record<string, unknown>;
  readonly layer: string;
}

/** Two files of one environment writing the same value: neither may silently win. */
export interface PatchConflict {
  readonly first: Place;
  readonly second: Place;
}

/** An entry after its patches: the merged value and where each part of it was written. */
export class PatchedEntry {
  /** The base file's own value until a patch applies; then a copy, so the base stays as written. */
  #value: Record<string, unknown>;
  #copied = false;
  readonly #origins: Origin[] = [];
  readonly #base: Place;

  constructor(base: Place, value: Record<string, unknown>) {
    this.#base = base;
    this.#value = value;
  }

  get value(): Record<string, unknown> {
    return this.#value;
  }

  /** Applies `patch`; returns the places where it disagrees with an earlier patch of the same layer. */
  apply(patch: EntryPatch): PatchConflict[] {
    const conflicts: PatchConflict[] = [];
    const merge = (target: Record<string, unknown>, changes: Record<string, unknown>, at: DocPath): void => {
      for (const [key, change] of Object.entries(changes)) {
        const path = [...at, key];
        if (isPlainObject(change) && isPlainObject(target[key])) {
          merge(target[key], change, path);
          continue;
        }
        const place = { source: patch.place.source, path: [...patch.place.path, ...path] };
        const earlier = this.#origins.find(
          (o) =>
            o.layer === patch.layer &&
            o.place.source !== place.source &&
            (isUnder(path, o.prefix) || isUnder(o.prefix, path)),
        );
        if (earlier) conflicts.push({ first: earlier.place, second: place });
        if (change === null) delete target[key];
        else target[key] = isPlainObject(change) ? withoutNulls(change) : structuredClone(change);
        this.#origins.push({ prefix: path, place, layer: patch.layer });
      }
    };
    if (!this.#copied) {
      this.#value = structuredClone(this.#value);
      this.#copied = true;
    }
    merge(this.#value, patch.value, []);
    return conflicts;
  }

  /** Where the value at `path` (relative to the entry) was written. */
  placeOf(path: DocPath): Place {
    let best: Origin | undefined;
    for (const o of this.#origins) {
      if (isUnder(path, o.prefix) && (best === undefined || o.prefix.length >= best.prefix.length)) best = o;
    }
    if (best === undefined) return { source: this.#base.source, path: [...this.#base.path, ...path] };
    return { source: best.place.source, path: [...best.place.path, ...path.slice(best.prefix.length)] };
  }
}

/** A map written by a patch where the base had none: its `null` members mean "absent". */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, isPlainObject(v) ? withoutNulls(v) : structuredClone(v)]),
  );
}
