/**
 * A kind's nested collections: the members of its config entry holding items of a child kind
 * (an IP policy's `rules`, an HTTPS edge's `routes`), read off the child kinds' descriptors.
 */
import { builtinKinds, type KindRegistry } from './registry.js';
import type { KindDescriptor, KindName } from './types.js';

/** The child kinds written inside an entry of `kind`, with the member holding each. */
export function nestedCollections(
  kind: KindName,
  kinds: KindRegistry = builtinKinds,
): { readonly member: string; readonly child: KindDescriptor }[] {
  return kinds.managed.flatMap((child) => {
    const nestedIn = child.config?.nestedIn;
    return nestedIn?.parentKind === kind ? [{ member: nestedIn.member, child }] : [];
  });
}
