/**
 * Computes the plan from a desired state and the live state, as a sequence of steps (under
 * `steps/`): pair objects, find replaces, build each object's operations (with the ownership
 * marker, secrets masked), delete orphans with their cascades, check protection, order, summarize.
 */
import { cachedSecretHasher, type DesiredState } from '../resources/index.js';
import { desiredFingerprint, liveFingerprint } from './fingerprint.js';
import type { LiveState } from '../live/index.js';
import { isPaired, matchObjects } from './match.js';
import { checkProtection } from './protection.js';
import { foldCascades, observedRelease, orphanDeletes } from './steps/deletes.js';
import { refuseAdoptLookalikes } from './steps/lookalikes.js';
import { observedDrift, planNotes, summarize, unmanagedObjects } from './steps/report.js';
import { objectOperations } from './steps/operations.js';
import { orderPlan } from './steps/ordering.js';
import { MetadataWriter } from './steps/ownership-metadata.js';
import { findReplacements } from './steps/changes.js';
import { tokenCapture } from './steps/token-capture.js';
import type { Plan, TokenFileView } from '../plan-format/index.js';
import { WrittenStates } from './written-state.js';

interface BuildOptions {
  readonly scope: string;
  readonly adopt: boolean;
  readonly noDelete: boolean;
  readonly configPaths: readonly string[];
  /** Keys of protected objects this plan may delete or replace anyway (`--unprotect KEY`). */
  readonly unprotect?: readonly string[];
  /** The environment the desired state was loaded for, recorded so `apply` loads the same. */
  readonly environment?: string;
  /** The config's other environments: whose id a pin this account lacks may be. */
  readonly otherEnvironments?: readonly string[];
  /** The plan's `createdAt`: an input like the others, so the same inputs give the same bytes. */
  readonly now: Date;
  /**
   * The token file's view (`--token-output`): ids whose token it holds, and whether managed
   * token-bearing objects missing from it are replaced to capture a new token (`--recapture-tokens`).
   * Absent without a token file.
   */
  readonly tokens?: TokenFileView;
}

/** The options recorded in the plan, so that `apply plan.json` re-plans the same way. */
function recordedOptions(options: BuildOptions): Plan['options'] {
  return {
    adopt: options.adopt,
    noDelete: options.noDelete,
    ...(options.unprotect !== undefined && options.unprotect.length > 0
      ? { unprotect: [...options.unprotect] }
      : {}),
    ...(options.environment === undefined ? {} : { environment: options.environment }),
  };
}

/** `f`'s result, computed on the first call only. */
function once<T>(f: () => T): () => T {
  let result: { readonly value: T } | undefined;
  return () => (result ??= { value: f() }).value;
}

/**
 * The fingerprints, hashed when first read: the text plan never shows them, while the JSON plan,
 * a saved plan's check and watch's revision read them (the same bytes either way, since neither
 * state changes after the plan is built). Hashing both is about a third of `buildPlan`.
 */
function lazyFingerprints(desired: DesiredState, live: LiveState, scope: string) {
  return {
    desired: once(() => desiredFingerprint(desired, scope)),
    live: once(() => liveFingerprint(live)),
  };
}

/**
 * Computes the plan.
 * @throws {UserError} when the plan would break a rule: an `--adopt` look-alike, metadata over its
 *   limit, a protected object removed, or operations with no safe order
 */
export function buildPlan(desired: DesiredState, live: LiveState, options: BuildOptions): Plan {
  const { scope } = options;
  const matching = matchObjects(desired, live, {
    scope,
    adopt: options.adopt,
    environment: options.environment,
    otherEnvironments: options.otherEnvironments ?? [],
  });
  const paired = matching.matches.filter(isPaired);
  const observed = paired.filter((m) => m.desired.observe === true);
  const desiredByKey = new Map(desired.objects.map((o) => [o.key, o]));
  const hash = cachedSecretHasher();
  const capture = tokenCapture(
    paired.filter((m) => m.desired.observe !== true),
    options.tokens,
  );
  const replacements = findReplacements(paired, capture.recaptured, hash);
  if (options.adopt) refuseAdoptLookalikes(matching, replacements.resolve, hash);
  const fingerprints = lazyFingerprints(desired, live, scope);
  const written = new WrittenStates(paired);
  const metadata = new MetadataWriter(scope, hash, fingerprints.live, written);
  const managed = matching.matches.filter((m) => m.desired.observe !== true);
  const objects = objectOperations(managed, { replacements, capture, metadata, written });
  const release = observedRelease(observed, matching.orphans, scope);
  const deletes = options.noDelete ? [] : orphanDeletes(release.orphans);
  const planned = foldCascades([...objects.operations, ...deletes], live.objects);
  checkProtection(planned, live.objects, {
    scope,
    desired: desiredByKey,
    unprotect: new Set(options.unprotect),
  });
  const ordered = orderPlan(planned, {
    desiredByKey,
    liveObjects: live.objects,
    deleteFirst: objects.deleteFirst,
    resolve: replacements.resolve,
  });
  // Releases depend on nothing and nothing on them: metadata PATCHes, after the rest.
  const operations = [...ordered.operations, ...release.operations];
  const { blocked } = ordered;
  return {
    formatVersion: 2,
    createdAt: options.now.toISOString(),
    scope,
    ...(options.environment === undefined ? {} : { environment: options.environment }),
    configPaths: options.configPaths,
    get desiredFingerprint() {
      return fingerprints.desired();
    },
    get liveFingerprint() {
      return fingerprints.live();
    },
    resolvedIds: Object.fromEntries(replacements.keptIds),
    operations,
    summary: summarize(operations, {
      replaced: replacements.replaced.size,
      unchanged: objects.unchanged,
      liveObjects: live.objects.filter((l) => !release.released.has(l.id)),
      scope,
    }),
    notes: planNotes({
      operations,
      desiredByKey,
      matching,
      paired,
      tokenFile: options.tokens !== undefined,
      capture,
      blocked,
    }),
    ...(observed.length > 0 ? { observed: observedDrift(observed, replacements) } : {}),
    ...(matching.lookalikes.length > 0 ? { lookalikes: matching.lookalikes } : {}),
    unmanaged: unmanagedObjects(matching.unmanaged),
    liveKinds: live.kinds,
    options: recordedOptions(options),
  };
}
