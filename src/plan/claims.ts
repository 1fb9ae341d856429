/**
 * Claims on unique values (domains, hostports, SSH keys, CIDRs within a policy, route matches
 * within an edge): which operation of a plan claims a value the service keeps unique, and which
 * releases it, so that the order can free each value before another object takes it.
 */
import { claimKeys, descriptorOf, type DesiredObject, type KindDescriptor } from '../resources/index.js';
import type { LiveObject } from '../live/index.js';
import { resolvedFields, type ResolveRef } from './normalize.js';
import { byReference, desiredParentId } from './parents.js';
import { objectParts, releaseRequest } from './requests.js';
import type { Operation } from '../plan-format/index.js';

/** What one operation takes and frees, as claim keys (see `claimKeys`). */
export interface ClaimSides {
  readonly claims: readonly string[];
  readonly releases: readonly string[];
  /**
   * For an update that both claims and releases, a first PATCH that only releases (the claim
   * field's live items the desired value keeps): what breaks a swap between two updates. Absent
   * when the claim field is not a list, as no value is both valid and unclaimed then.
   */
  readonly interim?: Operation;
}

interface ClaimInputs {
  readonly desiredByKey: ReadonlyMap<string, DesiredObject>;
  readonly liveById: ReadonlyMap<string, LiveObject>;
  readonly resolve: ResolveRef;
}

const minus = (a: readonly string[], b: readonly string[]): string[] => {
  const drop = new Set(b);
  return a.filter((x) => !drop.has(x));
};

/** A first PATCH of `op` that keeps only the live items of the claim field the desired value keeps. */
function interimOf(
  d: KindDescriptor,
  op: Operation,
  live: LiveObject,
  desired: Readonly<Record<string, unknown>>,
) {
  const name = d.naturalKey?.fields.length === 1 ? d.naturalKey.fields[0] : undefined;
  const f = name === undefined ? undefined : d.fields[name];
  if (name === undefined || f?.type.type !== 'list' || f.write !== 'mutable') return undefined;
  const before = live.record[name];
  const after = desired[name];
  if (!Array.isArray(before) || !Array.isArray(after)) return undefined;
  const kept = new Set(claimKeys(d, { [name]: after }, undefined));
  const interim = before.filter((v) => claimKeys(d, { [name]: [v] }, undefined).every((k) => kept.has(k)));
  const changes = [{ path: [name], before, after: interim }];
  const path = objectParts(d, op.liveId ?? '', op.liveParentId);
  const interimOp: Operation = {
    id: `release ${op.key}`,
    action: 'update',
    kind: op.kind,
    key: op.key,
    ...(op.liveId === undefined ? {} : { liveId: op.liveId }),
    ...(op.liveParentId === undefined ? {} : { liveParentId: op.liveParentId }),
    changes,
    dependsOn: [],
    interim: true,
    reason: `first releases the ${name} another object claims; \`${op.id}\` sets the rest`,
    reason_code: 'update_because_release_before_claim',
    ...(op.cause === undefined ? {} : { cause: op.cause }),
    requests: [releaseRequest(d, path, changes)],
  };
  return interimOp;
}

/** The claims and releases of each operation that has any, by operation id. */
export function claimsOf(ops: readonly Operation[], inputs: ClaimInputs): Map<string, ClaimSides> {
  const out = new Map<string, ClaimSides>();
  for (const op of ops) {
    const d = descriptorOf(op.kind);
    if (d.naturalKey?.claim === undefined) continue;
    const live = op.liveId === undefined ? undefined : inputs.liveById.get(op.liveId);
    const held = live === undefined ? [] : claimKeys(d, live.record, live.parentId);
    const o = op.action === 'delete' ? undefined : inputs.desiredByKey.get(op.key);
    const values = o === undefined ? undefined : resolvedFields(d, o, inputs.resolve);
    const wanted =
      o === undefined || values === undefined
        ? []
        : claimKeys(d, values, desiredParentId(d, o, byReference(inputs.resolve)));
    const claims = op.action === 'create' ? wanted : minus(wanted, held);
    const releases = op.action === 'delete' ? held : op.action === 'create' ? [] : minus(held, wanted);
    if (claims.length === 0 && releases.length === 0) continue;
    const interim =
      (op.action === 'update' || op.action === 'rename') &&
      claims.length > 0 &&
      releases.length > 0 &&
      live !== undefined &&
      values
        ? interimOf(d, op, live, values)
        : undefined;
    out.set(op.id, { claims, releases, ...(interim === undefined ? {} : { interim }) });
  }
  return out;
}
