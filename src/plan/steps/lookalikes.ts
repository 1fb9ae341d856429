/**
 * With `--adopt`, the creates are checked against the unmanaged objects left over, compared in
 * the planner's normal forms with references resolved as the plan resolves them.
 */
import { naturalIdentity, type KindRegistry } from '../../resources/index.js';
import type { SecretHasher } from '../../resources/ownership/marker.js';
import { refuseLookalikeCreates } from '../lookalike.js';
import type { Matching } from '../match.js';
import { resolvedFields, type ResolveRef } from '../normalize.js';
import { byReference, desiredParentId } from '../parents.js';
import { changesOf } from './object-changes.js';

/** @throws {UserError} when a create may duplicate an unmanaged object (see `refuseLookalikeCreates`) */
export function refuseAdoptLookalikes(
  matching: Matching,
  resolve: ResolveRef,
  hash: SecretHasher,
  kinds: KindRegistry,
): void {
  const creates = matching.matches.filter((m) => m.live === undefined).map((m) => m.desired);
  refuseLookalikeCreates(creates, matching.unmanaged, {
    kinds,
    identity: (o) => {
      const d = kinds.descriptorOf(o.kind);
      return naturalIdentity(d, resolvedFields(d, o, resolve), desiredParentId(d, o, byReference(resolve)));
    },
    changedFields: (o, l) =>
      changesOf(kinds.descriptorOf(o.kind), { desired: o, live: l, adopted: true }, resolve, hash).map((c) =>
        String(c.path[0]),
      ),
  });
}
