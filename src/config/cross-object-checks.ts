/**
 * The checks that need every object of the desired state at once: duplicates, references and
 * their cycles, the files' scopes, and metadata once the ownership marker is added.
 */
import { firstOf } from '../count.js';
import { fileDiagnostic, type Diagnostic } from './diagnostic.js';
import type { DeclaredObject } from './objects.js';
import { findCycles, resolveReferences, uniqueObjects, type UncheckedReference } from './references.js';
import { checkScopes, filesScope, type ScopeSetting } from './scopes.js';
import type { FileFinding } from './source.js';
import { markedMetadata, writtenPlaceholder } from '../resources/index.js';

export interface CheckedObjects {
  /** The objects, each key once. */
  readonly objects: DeclaredObject[];
  /** Field values with references resolved, by object. */
  readonly resolved: ReadonlyMap<DeclaredObject, Record<string, unknown>>;
  /** What the checks found wrong across objects, for the loader to report. */
  readonly findings: readonly FileFinding[];
  /** Warnings for the files that did not parse, in place of the errors their objects would cause. */
  readonly unreadNotes: readonly Diagnostic[];
}

/** Runs the checks over the declared objects; `unread` are the files that did not parse. */
export function checkAcrossObjects(
  declared: DeclaredObject[],
  scopes: readonly ScopeSetting[],
  unread: readonly string[],
): CheckedObjects {
  const cross: FileFinding[] = [];
  const objects = uniqueObjects(declared, cross);
  const unchecked: UncheckedReference[] = [];
  const { resolved, edges } = resolveReferences(
    objects,
    cross,
    unread.length > 0 ? { unchecked } : undefined,
  );
  findCycles(objects, edges, cross);
  checkScopes(scopes, cross);
  checkMetadataWithMarker(objects, resolved, filesScope(scopes), cross);
  return { objects, resolved, findings: cross, unreadNotes: uncheckedNote(unread, unchecked) };
}

/**
 * One warning per file that did not parse, in place of the "no such object" errors its objects
 * would have answered: the names it may define were not checked.
 */
function uncheckedNote(unread: readonly string[], unchecked: readonly UncheckedReference[]): Diagnostic[] {
  if (unchecked.length === 0) return [];
  const named = firstOf(
    unchecked.map((u) => `${u.name} (${u.source.file}:${u.line})`),
    5,
  );
  return unread.map((file) =>
    fileDiagnostic(
      file,
      `references to names this file may define were not checked, because it did not parse: ${named}`,
      { severity: 'warning', hint: 'fix this file first; the references are checked once it parses' },
    ),
  );
}

/** User metadata that fits alone but not once `sync` adds the ownership marker (scope and key). */
function checkMetadataWithMarker(
  declared: readonly DeclaredObject[],
  resolved: ReadonlyMap<DeclaredObject, Record<string, unknown>>,
  scope: string,
  out: FileFinding[],
): void {
  for (const o of declared) {
    if (!('metadata' in o.descriptor.fields) || typeof o.values.metadata !== 'string') continue;
    // A live object's sticky protection is unknown offline: only `protect: true` as written counts.
    const state = { protect: o.protect === true, written: writtenPlaceholder };
    const marked = markedMetadata(o.descriptor, o.key, resolved.get(o) ?? o.values, scope, state);
    if (marked.tooLong === undefined || !marked.userFits) continue;
    out.push({
      ...o.place(['metadata']),
      message: marked.tooLong,
      hint: `acctsync adds an ownership marker (scope ${scope}, key ${o.key}) to every object's metadata`,
    });
  }
}
