/**
 * Hand edits drawn between the model's steps, as a dashboard user makes them on the converged
 * account: an object's metadata replaced (its ownership marker with it), a rule added by hand to a
 * managed IP policy, a description changed. Drawn from a stream of their own, so the config steps of
 * a seed stay the same with or without them.
 */
import type { ApiClient } from '../../src/api/index.js';
import type { LiveObject } from '../../src/live/index.js';
import { descriptorOf, naturalIdentity, objectPath } from '../../src/resources/index.js';
import type { Rng } from '../reliability/support/prng.js';

export interface HandEdit {
  readonly what: string;
  /** A managed object whose marker the edit removed: the next sync must refuse, `--adopt` take it back. */
  readonly markerRemoved?: { readonly id: string; readonly key: string };
}

/** A CIDR the model's configs never hold: a rule added by hand never meets an entry of the config. */
const handCidr = '192.0.2.0/24';

/** The objects an edit of `field` can be made on: writable in place, and carrying the field. */
function editable(objects: readonly LiveObject[], field: string): LiveObject[] {
  return objects.filter((l) => {
    const d = descriptorOf(l.kind);
    return d.operations.update && d.fields[field]?.write === 'mutable';
  });
}

/**
 * Makes one hand edit on the managed objects of `scope` (or none, half the time), returning what
 * it did. A marker is edited away only where the object can still be told: by its natural key, a
 * non-empty description, or nested items that keep their markers (docs/config.md).
 */
export async function drawHandEdit(
  rng: Rng,
  client: ApiClient,
  live: readonly LiveObject[],
  scope: string,
): Promise<HandEdit | undefined> {
  if (!rng.chance(0.5)) return undefined;
  const managed = live.filter((l) => l.marker?.scope === scope);
  const path = (l: LiveObject) => objectPath(descriptorOf(l.kind), l.id, l.parentId);
  const identified = editable(managed, 'metadata').filter(
    (l) =>
      naturalIdentity(descriptorOf(l.kind), l.record, l.parentId) !== undefined ||
      managed.some((child) => child.parentId === l.id),
  );
  const policies = managed.filter(
    (l) =>
      l.kind === 'ip_policies' &&
      !live.some((r) => r.kind === 'ip_policy_rules' && r.parentId === l.id && r.record.cidr === handCidr),
  );
  const described = editable(managed, 'description');
  const edits = [
    ...(identified.length > 0 ? ['metadata'] : []),
    ...(policies.length > 0 ? ['rule'] : []),
    ...(described.length > 0 ? ['description'] : []),
  ];
  if (edits.length === 0) return undefined;
  const edit = rng.pick(edits);
  if (edit === 'metadata') {
    const l = rng.pick(identified);
    await client.patch(path(l), { metadata: 'reviewed by the security team' });
    return {
      what: `metadata of ${l.marker?.key ?? l.id} (${l.id}) replaced`,
      markerRemoved: { id: l.id, key: l.marker?.key ?? '' },
    };
  }
  if (edit === 'rule') {
    const l = rng.pick(policies);
    await client.post('/ip_policy_rules', { ip_policy_id: l.id, cidr: handCidr, action: 'allow' });
    return { what: `rule ${handCidr} added to ${l.marker?.key ?? l.id} (${l.id})` };
  }
  const l = rng.pick(described);
  await client.patch(path(l), { description: 'changed by hand' });
  return { what: `description of ${l.marker?.key ?? l.id} (${l.id}) changed` };
}
