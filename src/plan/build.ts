/**
 * Computes the plan from a desired state and the live state: pairs objects, diffs them, decides
 * create / update / adopt / replace / delete, writes the ownership marker, masks secrets, orders.
 */
import {
  descriptorOf,
  naturalIdentity,
  isObjectKey,
  type DesiredObject,
  type DesiredState,
  type FieldPath,
  type KindDescriptor,
} from '../resources/index.js';
import { UserError } from '../errors.js';
import { managedCount, removedBy, withCascades } from './cascade.js';
import { diffObject, isUnder } from './diff.js';
import { structuralDiff } from './structural-diff.js';
import { desiredFingerprint, liveFingerprint } from './fingerprint.js';
import type { LiveObject, LiveState } from './live.js';
import { claimsOf } from './claims.js';
import { refuseLookalikeCreates } from './lookalike.js';
import { markedMetadata } from '../resources/ownership/marked-metadata.js';
import { matchObjects, type Match } from './match.js';
import { normalizeDesired, normalizeLive, resolvedFields, type ResolveRef } from './normalize.js';
import { orderOperations } from './order.js';
import { checkProtection } from './protection.js';
import { keyDeletesLast, keyInUseNote } from './key-in-use.js';
import { provisioningNotes } from './provisioning-notes.js';
import {
  cachedSecretHasher,
  secretMatches,
  type OwnershipMarker,
  type SecretHasher,
} from '../resources/ownership/marker.js';
import { hashKey, secretPaths, writeOnlyValues } from '../resources/ownership/secret-fields.js';
import { isPublicMaterial, maskChange } from './secrets.js';
import { sensitiveMask, type FieldChange, type ModuleChange, type Operation, type Plan } from './types.js';

export interface BuildOptions {
  readonly scope: string;
  readonly adopt: boolean;
  readonly noDelete: boolean;
  readonly configPaths: readonly string[];
  /** Keys of protected objects this plan may delete or replace anyway (`--unprotect KEY`). */
  readonly unprotect?: readonly string[];
  /** The environment the desired state was loaded for, recorded so `apply` loads the same. */
  readonly environment?: string;
  readonly now?: Date;
  /**
   * The token file's view (`--token-output`): ids whose token it holds, and whether managed
   * token-bearing objects missing from it are replaced to capture a new token (`--recapture-tokens`).
   * Absent without a token file.
   */
  readonly tokens?: TokenFileView;
}

export interface TokenFileView {
  readonly capturedIds: ReadonlySet<string>;
  readonly recapture: boolean;
}

const recaptureReason = 'its token is not in the token file: a new one is created to capture the token';

/** Paired token-bearing objects whose token the token file does not hold. */
function uncapturedTokens(
  paired: readonly (Match & { live: LiveObject })[],
  tokens: TokenFileView | undefined,
): (Match & { live: LiveObject })[] {
  if (tokens === undefined) return [];
  return paired.filter(
    (m) =>
      !m.adopted &&
      descriptorOf(m.desired.kind).tokenField !== undefined &&
      !tokens.capturedIds.has(m.live.id),
  );
}

/** How many configured top-level fields of a paired object already have their desired value. */
function unchangedOf(d: KindDescriptor, o: DesiredObject, live: LiveObject, resolve: ResolveRef): number {
  return structuralDiff(d, normalizeLive(d, live, o), normalizeDesired(d, o, resolve)).unchanged;
}

/** The changes of a paired object, before masking. */
function changesOf(
  d: KindDescriptor,
  m: Match & { live: LiveObject },
  resolve: ResolveRef,
  hash: SecretHasher,
): FieldChange[] {
  const o = m.desired;
  const changes = diffObject(d, normalizeLive(d, m.live, o), normalizeDesired(d, o, resolve));
  const link = d.parent;
  if (link?.via === 'path' && o.parentKey !== undefined) {
    // Children addressed through their parent's path cannot move: another parent means a new object.
    const parent = resolve(o.parentKey, { kinds: [link.kind], readShape: 'id' });
    if (parent !== m.live.parentId) {
      changes.push({ path: [link.field], before: m.live.parentId, after: parent, forcesReplace: true });
    }
  }
  // Write-only values: compared through the salted hashes the marker keeps. An object being
  // adopted has no hashes yet and the API never returns these values, so they are taken to be as
  // configured (the adopt writes their hashes); rewriting them would replace every adopted TLS
  // certificate, whose private key cannot change in place.
  if (m.adopted) return changes;
  const { salt, hashes = {} } = m.live.marker ?? {};
  const covered = (path: FieldPath) => changes.some((c) => isUnder(path, c.path));
  const wanted = writeOnlyValues(d.fields, o.fields);
  for (const { path, value } of wanted) {
    const known = hashes[hashKey(path)];
    if (salt !== undefined && known !== undefined && secretMatches(hash, salt, known, value)) continue;
    if (covered(path)) continue;
    const forcesReplace = d.fields[String(path[0])]?.write === 'immutable';
    changes.push({
      path,
      ...(known === undefined ? {} : { before: sensitiveMask }),
      after: sensitiveMask,
      sensitive: true,
      ...(forcesReplace ? { forcesReplace } : {}),
    });
  }
  const wantedKeys = new Set(wanted.map((w) => hashKey(w.path)));
  for (const key of Object.keys(hashes)) {
    const path = key.split('.');
    if (!wantedKeys.has(key) && !covered(path))
      changes.push({ path, before: sensitiveMask, sensitive: true });
  }
  return changes;
}

/** Paths to mask in one object's changes: descriptor secrets on either side, and the loader's list. */
function sensitivePathsOf(
  d: KindDescriptor,
  o: DesiredObject | undefined,
  live: LiveObject | undefined,
): FieldPath[] {
  return [
    ...(o
      ? [...secretPaths(d.fields, o.fields), ...o.sensitive.filter((p) => !isPublicMaterial(d.fields, p))]
      : []),
    ...(live ? secretPaths(d.fields, live.record) : []),
  ];
}

function moduleChanges(d: KindDescriptor, o: DesiredObject, changes: readonly FieldChange[]): ModuleChange[] {
  const names = new Set(changes.map((c) => String(c.path[0])));
  return Object.entries(d.fields)
    .filter(([name, f]) => f.type.type === 'module' && names.has(name))
    .map(([name]) => ({ name, action: o.fields[name] == null ? ('delete' as const) : ('put' as const) }));
}

/** The id (or, while it does not exist yet, the key) of a desired object's parent. */
function desiredParentId(d: KindDescriptor, o: DesiredObject, resolve: ResolveRef): string | undefined {
  const link = d.parent;
  const parentRef = link?.via === 'field' ? o.fields[link.field] : o.parentKey;
  return typeof parentRef === 'string' ? resolve(parentRef, { kinds: [], readShape: 'id' }) : undefined;
}

/** `liveParentId` for objects addressed under their parent's path. */
function pathParent(d: KindDescriptor, live: LiveObject): { liveParentId?: string } {
  return d.parent?.via === 'path' && live.parentId !== undefined ? { liveParentId: live.parentId } : {};
}

/**
 * Notes on the tokens the creates will return. Without a token file they are named: once the
 * create answered, nothing can get them back.
 */
function tokenNotes(operations: readonly Operation[], noTokenFile: boolean): string[] {
  const creates = operations.filter(
    (op) => op.action === 'create' && descriptorOf(op.kind).tokenField !== undefined,
  );
  if (creates.length === 0) return [];
  const titles = [...new Set(creates.map((op) => `${descriptorOf(op.kind).title}s`))].join(' and ');
  const note = `tokens of new ${titles} are shown only once, by the create response: they are saved only with --token-output FILE`;
  if (!noTokenFile) return [note];
  return [`${note}; without it the tokens of ${creates.map((op) => op.key).join(', ')} are unrecoverable`];
}

/** Computes the plan. Throws a `UserError` when a final metadata value would exceed its limit. */
export function buildPlan(desired: DesiredState, live: LiveState, options: BuildOptions): Plan {
  const { scope } = options;
  const matching = matchObjects(desired, live, { scope, adopt: options.adopt });
  const paired = matching.matches.filter((m): m is Match & { live: LiveObject } => m.live !== undefined);
  const desiredByKey = new Map(desired.objects.map((o) => [o.key, o]));
  const hash = cachedSecretHasher();

  // Replaces are found to a fixpoint: a replaced object's referrers see its key unresolved, and a
  // reference in an immutable field (a rule's policy) makes the referrer a replace in turn.
  const uncaptured = uncapturedTokens(paired, options.tokens);
  const recaptured = new Set(options.tokens?.recapture ? uncaptured.map((m) => m.desired.key) : []);
  const replaced = new Set<string>(recaptured);
  let resolve: ResolveRef = (ref) => ref;
  let changes = new Map<Match, FieldChange[]>();
  for (;;) {
    const ids = new Map(
      paired.filter((m) => !replaced.has(m.desired.key)).map((m) => [m.desired.key, m.live.id]),
    );
    resolve = (ref) => (isObjectKey(ref) ? (ids.get(ref) ?? ref) : ref);
    changes = new Map(paired.map((m) => [m, changesOf(descriptorOf(m.desired.kind), m, resolve, hash)]));
    const before = replaced.size;
    for (const [m, c] of changes) if (c.some((x) => x.forcesReplace)) replaced.add(m.desired.key);
    if (replaced.size === before) break;
  }

  if (options.adopt) {
    const creates = matching.matches.filter((m) => m.live === undefined).map((m) => m.desired);
    refuseLookalikeCreates(creates, matching.unmanaged, {
      identity: (o) => {
        const d = descriptorOf(o.kind);
        return naturalIdentity(d, resolvedFields(d, o, resolve), desiredParentId(d, o, resolve));
      },
      changedFields: (o, l) =>
        changesOf(descriptorOf(o.kind), { desired: o, live: l, adopted: true }, resolve, hash).map((c) =>
          String(c.path[0]),
        ),
    });
  }

  const ops: Operation[] = [];
  const deleteFirst = new Set<string>();
  const tooLong: string[] = [];
  let unchanged = 0;
  /** The metadata to write; `upgrade` rehashes every secret, else matching stored hashes are kept. */
  const marked = (
    d: KindDescriptor,
    o: DesiredObject,
    liveMarker: OwnershipMarker | undefined,
    upgrade: boolean,
  ) =>
    markedMetadata(d, o.key, o.fields, scope, {
      salt: liveMarker?.salt,
      // Protection is sticky: only an explicit `protect: false` lifts it.
      protect: o.protect ?? liveMarker?.protect === true,
      hash,
      kept: upgrade ? undefined : liveMarker?.hashes,
    });
  const finalMetadata = (
    d: KindDescriptor,
    o: DesiredObject,
    liveMarker: OwnershipMarker | undefined,
    upgrade = true,
  ): string => {
    const { value, tooLong: why } = marked(d, o, liveMarker, upgrade);
    if (why !== undefined) tooLong.push(`${o.key}: ${why}`);
    return value;
  };

  for (const m of matching.matches) {
    const o = m.desired;
    const d = descriptorOf(o.kind);
    const mask = (c: FieldChange) => maskChange(c, sensitivePathsOf(d, o, m.live));
    const parent = o.parentKey === undefined ? {} : { parentKey: o.parentKey };
    if (m.live === undefined) {
      const values = resolvedFields(d, o, resolve);
      const created = Object.keys(d.fields)
        .filter((name) => name in values && !(name === 'metadata' && values[name] === ''))
        .map((name) => mask({ path: [name], after: values[name] }));
      ops.push({
        id: `create ${o.key}`,
        action: 'create',
        kind: o.kind,
        key: o.key,
        ...parent,
        changes: created,
        dependsOn: [],
        reason_code: 'create_because_missing',
        metadata: finalMetadata(d, o, undefined),
      });
      continue;
    }
    const live = m.live;
    const liveParent = pathParent(d, live);
    const own = (changes.get(m) ?? []).map(mask);
    if (replaced.has(o.key)) {
      const forcing = [...new Set(own.filter((c) => c.forcesReplace).map((c) => String(c.path[0])))];
      const recapture = forcing.length === 0 && recaptured.has(o.key);
      const reason = recapture ? recaptureReason : `${forcing.join(', ')} cannot change in place`;
      const reasonCode = recapture
        ? ('replace_because_token_not_captured' as const)
        : d.parent !== undefined && forcing.every((name) => name === d.parent?.field)
          ? ('replace_because_parent_changed' as const)
          : ('replace_because_immutable' as const);
      const newParent = desiredParentId(d, o, resolve);
      const collides =
        d.naturalKey?.claim !== undefined &&
        naturalIdentity(d, resolvedFields(d, o, resolve), newParent) ===
          naturalIdentity(d, live.record, live.parentId);
      if (collides) deleteFirst.add(o.key);
      ops.push({
        id: `create ${o.key}`,
        action: 'create',
        kind: o.kind,
        key: o.key,
        ...parent,
        changes: own,
        unchanged: unchangedOf(d, o, live, resolve),
        dependsOn: [],
        replaces: o.key,
        reason,
        reason_code: reasonCode,
        metadata: finalMetadata(d, o, live.marker),
      });
      ops.push({
        id: `delete ${o.key}#${live.id}`,
        action: 'delete',
        kind: o.kind,
        key: o.key,
        liveId: live.id,
        ...parent,
        ...liveParent,
        changes: [],
        dependsOn: [],
        replaces: o.key,
        reason,
        reason_code: reasonCode,
      });
      continue;
    }
    // Hashes in the earlier format are upgraded when the object is written anyway, never by a
    // write of their own: an account synced before scrypt must not see every secret as changed.
    const written =
      own.length > 0 || m.adopted || marked(d, o, live.marker, false).value !== live.record.metadata;
    const metadata = finalMetadata(d, o, live.marker, written);
    const rewrite = metadata !== live.record.metadata;
    if (own.length === 0 && !rewrite && !m.adopted) {
      unchanged++;
      continue;
    }
    const modules = moduleChanges(d, o, own);
    ops.push({
      id: `${m.adopted ? 'adopt' : 'update'} ${o.key}`,
      action: m.adopted ? 'adopt' : 'update',
      kind: o.kind,
      key: o.key,
      liveId: live.id,
      ...parent,
      ...liveParent,
      changes: own,
      unchanged: unchangedOf(d, o, live, resolve),
      dependsOn: [],
      ...(m.adopted
        ? m.adoptedBy === 'pin'
          ? { reason: 'unmanaged object pinned by its id', reason_code: 'adopt_by_pin' }
          : { reason: 'unmanaged object with the same natural key', reason_code: 'adopt_by_natural_key' }
        : own.length === 0
          ? { reason: 'ownership marker refreshed', reason_code: 'update_because_marker_stale' }
          : { reason_code: 'update_because_changed' }),
      ...(rewrite ? { metadata } : {}),
      ...(modules.length > 0 ? { modules } : {}),
    });
  }

  if (tooLong.length > 0) {
    throw new UserError('metadata too long once the ownership marker is added', { details: tooLong });
  }

  if (!options.noDelete) {
    for (const { live: l, reason, reasonCode } of matching.orphans) {
      const key = l.marker?.key ?? l.id;
      ops.push({
        id: `delete ${key}#${l.id}`,
        action: 'delete',
        kind: l.kind,
        key,
        liveId: l.id,
        ...pathParent(descriptorOf(l.kind), l),
        changes: [],
        dependsOn: [],
        reason,
        reason_code: reasonCode,
      });
    }
  }
  // The service deletes children with their parent (rules with a policy, routes with an edge).
  const deleted = new Set(ops.filter((op) => op.action === 'delete').map((op) => op.liveId));
  const liveById = new Map(live.objects.map((l) => [l.id, l]));
  const cascaded = (op: Operation): boolean => {
    const l = op.liveId === undefined ? undefined : liveById.get(op.liveId);
    return l?.parentId !== undefined && descriptorOf(l.kind).parent !== undefined && deleted.has(l.parentId);
  };
  const planned = withCascades(
    ops.filter((op) => !(op.action === 'delete' && cascaded(op))),
    live.objects,
  );

  checkProtection(planned, live.objects, {
    scope,
    desired: desiredByKey,
    unprotect: new Set(options.unprotect ?? []),
  });

  const ordered = orderOperations(planned, {
    desired: desiredByKey,
    live: live.objects,
    deleteFirst,
    claims: claimsOf(planned, { desiredByKey, liveById, resolve }),
  });
  const operations = keyDeletesLast(ordered.operations);
  const { blocked } = ordered;

  const resolvedIds = Object.fromEntries(
    paired.filter((m) => !replaced.has(m.desired.key)).map((m) => [m.desired.key, m.live.id]),
  );
  const count = (action: Operation['action']) =>
    operations.filter((op) => op.action === action && op.replaces === undefined && op.interim !== true)
      .length;
  const notes = [
    ...tokenNotes(operations, options.tokens === undefined),
    ...uncaptured
      .filter((m) => !recaptured.has(m.desired.key))
      .map(
        (m) =>
          `${m.desired.key} (${m.live.id}): its token is not in the token file and the API never shows it again: sync --recapture-tokens replaces it with a new one whose token is saved`,
      ),
    ...(operations.some(
      (op) =>
        op.action === 'adopt' &&
        writeOnlyValues(descriptorOf(op.kind).fields, desiredByKey.get(op.key)?.fields ?? {}).length > 0,
    )
      ? [
          'adopted objects keep their secrets and private keys as they are: the API never returns them, so acctsync records the configured ones without rewriting; change a secret in the config to have it written',
        ]
      : []),
    ...keyInUseNote(operations),
    ...matching.notes,
    ...provisioningNotes(paired),
    ...blocked,
  ];
  return {
    formatVersion: 1,
    createdAt: (options.now ?? new Date()).toISOString(),
    scope,
    configPaths: options.configPaths,
    desiredFingerprint: desiredFingerprint(desired, scope),
    liveFingerprint: liveFingerprint(live),
    resolvedIds,
    operations,
    summary: {
      create: count('create'),
      update: count('update'),
      replace: replaced.size,
      delete: count('delete'),
      adopt: count('adopt'),
      unchanged,
      managed: managedCount(live.objects, scope),
      removed: operations.reduce((n, op) => n + removedBy(op), 0),
    },
    notes,
    liveKinds: live.kinds,
    options: {
      adopt: options.adopt,
      noDelete: options.noDelete,
      ...(options.unprotect !== undefined && options.unprotect.length > 0
        ? { unprotect: [...options.unprotect] }
        : {}),
      ...(options.environment === undefined ? {} : { environment: options.environment }),
    },
  };
}
