/** What the plan reports of the observed entries: how each live object differs from its entry. */
import { descriptorOf } from '../../resources/index.js';
import type { Paired } from '../match.js';
import type { ObservedObject } from '../../plan-format/index.js';
import { changeMasker } from './masking.js';
import type { Replacements } from './replacements.js';

/** One report per observed entry, its changes masked as every change is: `before` live, `after` config. */
export function observedDrift(observed: readonly Paired[], replacements: Replacements): ObservedObject[] {
  return observed.map((m) => {
    const d = descriptorOf(m.desired.kind);
    return {
      kind: m.desired.kind,
      key: m.desired.key,
      liveId: m.live.id,
      changes: (replacements.changes.get(m) ?? []).map(changeMasker(d, m.desired, m.live)),
    };
  });
}
