/**
 * Which paired objects are replaced, and how references resolve once they are: a replaced object's
 * referrers see its key unresolved, and a reference in an immutable field (a rule's policy) makes
 * the referrer a replace in turn, so replaces are found to a fixpoint.
 */
import { descriptorOf, isObjectKey } from '../../resources/index.js';
import type { SecretHasher } from '../../resources/ownership/marker.js';
import type { Match, Paired } from '../match.js';
import type { ResolveRef } from '../normalize.js';
import type { FieldChange } from '../../plan-format/index.js';
import { changesOf } from './object-changes.js';

export interface Replacements {
  /** Keys of the paired objects replaced: a change forces it, or their token is recaptured. */
  readonly replaced: ReadonlySet<string>;
  /** The live ids of the paired objects kept, by key: what references resolve to. */
  readonly keptIds: ReadonlyMap<string, string>;
  readonly resolve: ResolveRef;
  /** Each paired object's changes, before masking, as the final `resolve` sees them. */
  readonly changes: ReadonlyMap<Match, readonly FieldChange[]>;
}

export function findReplacements(
  paired: readonly Paired[],
  recaptured: ReadonlySet<string>,
  hash: SecretHasher,
): Replacements {
  const replaced = new Set<string>(recaptured);
  for (;;) {
    const keptIds = new Map(
      paired.filter((m) => !replaced.has(m.desired.key)).map((m) => [m.desired.key, m.live.id]),
    );
    const resolve: ResolveRef = (ref) => (isObjectKey(ref) ? (keptIds.get(ref) ?? ref) : ref);
    const changes = new Map(
      paired.map((m) => [m, changesOf(descriptorOf(m.desired.kind), m, resolve, hash)]),
    );
    const before = replaced.size;
    // An observed object is never written: what differs is drift to report, not a replace.
    for (const [m, c] of changes)
      if (m.desired.observe !== true && c.some((x) => x.forcesReplace)) replaced.add(m.desired.key);
    if (replaced.size === before) return { replaced, keptIds, resolve, changes };
  }
}
