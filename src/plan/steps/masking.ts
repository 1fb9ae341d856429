/** Which of an object's changes are masked as `(sensitive)` before they enter the plan. */
import type { DesiredObject, FieldPath, KindDescriptor } from '../../resources/index.js';
import { secretPaths } from '../../resources/ownership/secret-fields.js';
import type { LiveObject } from '../../live/index.js';
import { isPublicMaterial, maskChange } from '../secrets.js';
import type { FieldChange } from '../../plan-format/index.js';

/** Paths to mask in one object's changes: descriptor secrets on either side, and the loader's list. */
function sensitivePathsOf(d: KindDescriptor, o: DesiredObject, live: LiveObject | undefined): FieldPath[] {
  return [
    ...secretPaths(d.fields, o.fields),
    ...o.sensitive.filter((p) => !isPublicMaterial(d.fields, p)),
    ...(live ? secretPaths(d.fields, live.record) : []),
  ];
}

/** Masks a change of `o` (paired with `live` when it exists). */
export function changeMasker(
  d: KindDescriptor,
  o: DesiredObject,
  live: LiveObject | undefined,
): (c: FieldChange) => FieldChange {
  // Found on the first change: most objects have none, and the walks would be for nothing.
  let paths: FieldPath[] | undefined;
  return (c) => maskChange(c, (paths ??= sensitivePathsOf(d, o, live)));
}
