/**
 * The refusal that keeps `--adopt` from duplicating an account: a create is planned only when no
 * unmanaged object of the kind could be the one meant (same natural key, same description or same
 * content), and a new token-bearing object (API key, tunnel credential) only when asked for by name.
 * The user resolves each case with an `id:` pin, or `id: new` for a new object. The creates are
 * compared with the unmanaged objects left over in the planner's normal forms, with references
 * resolved as the plan resolves them.
 */
import { UserError } from '../../errors.js';
import {
  descriptorOf,
  naturalIdentity,
  newObjectPin,
  type DesiredObject,
  type SecretHasher,
} from '../../resources/index.js';
import type { LiveObject } from '../../live/index.js';
import type { Matching } from '../match.js';
import { resolvedFields, type ResolveRef } from '../normalize.js';
import { byReference, desiredParentId } from '../parents.js';
import { changesOf } from './changes.js';

/** How a desired object is compared with one live object, by the planner's own normal forms. */
interface Resemblance {
  /** The desired object's natural identity with its references resolved, as `naturalIdentity` gives it. */
  readonly identity: (o: DesiredObject) => string | undefined;
  /** The top-level fields (and parent link) whose live value differs from the desired one. */
  readonly changedFields: (o: DesiredObject, live: LiveObject) => readonly string[];
}

/** The members that say what an object is for, not what it is. */
const labels = ['description', 'metadata'];

function reasonsOf(o: DesiredObject, l: LiveObject, how: Resemblance): string[] {
  const d = descriptorOf(o.kind);
  const identity = how.identity(o);
  const description = o.fields.description;
  // An object with nothing but labels (an API key) has no content to resemble by.
  const hasContent = Object.keys(o.fields).some((name) => !labels.includes(name));
  return [
    ...(identity !== undefined && identity === naturalIdentity(d, l.record, l.parentId)
      ? [d.naturalKey ? `same ${d.naturalKey.fields.join(' and ')}` : 'same description']
      : typeof description === 'string' && description !== '' && description === l.record.description
        ? ['same description']
        : []),
    ...(hasContent && how.changedFields(o, l).every((name) => labels.includes(name)) ? ['same content'] : []),
  ];
}

/**
 * Throws a `UserError` listing every object `creates` would create beside an unmanaged look-alike
 * in `unmanaged`, and every new token-bearing object not pinned `new`.
 */
function refuseLookalikeCreates(
  creates: readonly DesiredObject[],
  unmanaged: readonly LiveObject[],
  how: Resemblance,
): void {
  const problems: string[] = [];
  for (const o of creates) {
    if (o.pin === newObjectPin) continue;
    const d = descriptorOf(o.kind);
    const alike = unmanaged.flatMap((l) => {
      if (l.kind !== o.kind) return [];
      const reasons = reasonsOf(o, l, how);
      return reasons.length === 0 ? [] : [`${l.id} (${reasons.join(', ')})`];
    });
    if (alike.length > 0) {
      problems.push(
        `${o.key}: unmanaged ${d.titlePlural} look like it: ${alike.join('; ')}: write \`id: <one of them>\` to take it over, or \`id: ${newObjectPin}\` to create another`,
      );
    } else if (d.tokenField !== undefined) {
      problems.push(
        `${o.key}: a new ${d.title} would be created, with a token nobody holds yet: write \`id: <its id>\` to take over an existing one, or \`id: ${newObjectPin}\` to create it`,
      );
    }
  }
  if (problems.length > 0) {
    throw new UserError('--adopt would create objects that may already exist', {
      details: [...problems, 'Nothing was changed.'],
    });
  }
}

/** @throws {UserError} when a create may duplicate an unmanaged object (see `refuseLookalikeCreates`) */
export function refuseAdoptLookalikes(matching: Matching, resolve: ResolveRef, hash: SecretHasher): void {
  const creates = matching.matches.filter((m) => m.live === undefined).map((m) => m.desired);
  refuseLookalikeCreates(creates, matching.unmanaged, {
    identity: (o) => {
      const d = descriptorOf(o.kind);
      return naturalIdentity(d, resolvedFields(d, o, resolve), desiredParentId(d, o, byReference(resolve)));
    },
    changedFields: (o, l) =>
      changesOf(descriptorOf(o.kind), { desired: o, live: l, adopted: true }, resolve, hash).map((c) =>
        String(c.path[0]),
      ),
  });
}
