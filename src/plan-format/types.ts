/**
 * The plan: plain serializable data computed by the planner and executed by the applier. It never
 * holds a secret: sensitive values are `(sensitive)` in changes and references in requests, which
 * the applier resolves from the desired state it is handed alongside.
 */
import type { FieldPath, KindName } from '../resources/index.js';

export { sensitiveMask } from '../sensitive-mask.js';

/**
 * One step the applier runs. A replace appears as two steps sharing `replaces` (create the new
 * object, then delete the old one after every referrer moved to the new one), or in the opposite
 * order when the old object would block the new one (same natural key, see `deleteFirst`). A
 * rename is an update that also rewrites the marker's key: the live object stays, with its id.
 */
export const operationActions = ['create', 'update', 'delete', 'adopt', 'rename'] as const;
export type OperationAction = (typeof operationActions)[number];

/** A field-level change, `before`/`after` as plain values (references as keys or ids). */
export interface FieldChange {
  readonly path: FieldPath;
  /** Absent when the field is being set for the first time. */
  readonly before?: unknown;
  /** Absent when the field is being removed (modules). */
  readonly after?: unknown;
  readonly sensitive?: boolean;
  /** This change cannot be made in place (an immutable field): it is why the object is replaced. */
  readonly forcesReplace?: boolean;
}

/**
 * Why an operation exists, for machines (Terraform's `action_reason`); `reason` says it to humans.
 * Codes are only ever added: a script may rely on the ones it knows.
 */
export const reasonCodes = [
  'create_because_missing',
  'update_because_changed',
  'update_because_marker_stale',
  'update_because_release_before_claim',
  'update_because_observed',
  'adopt_by_pin',
  'adopt_by_natural_key',
  'adopt_by_description',
  'adopt_by_marked_children',
  'rename_because_moved',
  'rename_because_same_unique_value',
  'rename_because_parent_renamed',
  'rename_because_pinned',
  'replace_because_immutable',
  'replace_because_parent_changed',
  'replace_because_token_not_captured',
  'delete_because_removed_from_config',
  'delete_because_duplicate',
  'delete_because_added_outside',
] as const;
export type ReasonCode = (typeof reasonCodes)[number];

/**
 * Why an update, replace or delete is in the plan: the config changed since acctsync last wrote
 * the object, the live object changed outside acctsync since then (drift), or both.
 */
export const changeCauses = ['config', 'drift', 'both'] as const;
export type ChangeCause = (typeof changeCauses)[number];

export interface Operation {
  /** Unique within the plan and stable across identical plans: `<action> <key>` (`delete <key>#<id>` for deletes). */
  readonly id: string;
  readonly action: OperationAction;
  readonly kind: KindName;
  /** Logical key of the desired object (or, for deletes, the key recorded in the live marker). */
  readonly key: string;
  /** The live object's id for update, delete, adopt and rename. */
  readonly liveId?: string;
  /** On a rename: the key the live object's marker held (the entry's name before). */
  readonly renamedFrom?: string;
  /** For nested kinds created under a parent path (routes): the parent's key. */
  readonly parentKey?: string;
  /**
   * For kinds addressed under their parent's path (routes): the live parent's id, on operations on
   * an existing object (update, adopt, delete), so its path is known even when it left the config.
   */
  readonly liveParentId?: string;
  /** Field-level changes; for a create every set field, for a delete none. */
  readonly changes: readonly FieldChange[];
  /** For update, adopt and a replace's create: how many configured top-level fields stay as they are. */
  readonly unchanged?: number;
  /** Operation ids that must succeed before this one starts. */
  readonly dependsOn: readonly string[];
  /** Set on both steps of a replace: the key being replaced; renderers show them as one `-/+`. */
  readonly replaces?: string;
  /**
   * A first PATCH of an update that only releases unique values another object of the plan claims
   * (one half of a swap): the applier sends its changes' `after` values, which are never secret.
   */
  readonly interim?: boolean;
  /** Why the operation exists when it is not obvious ("ca_pem changed", "left the config"). */
  readonly reason?: string;
  readonly reason_code: ReasonCode;
  /** On updates, both halves of a replace, and deletes: the config's change, drift, or both. */
  readonly cause?: ChangeCause;
  /**
   * What the applier sends, in order: the reviewed operation as HTTP requests. A create's first
   * request is its POST; every other request addresses the object (or one of its modules).
   */
  readonly requests: readonly OperationRequest[];
  /** On deletes: what the service removes with the object (its children and modules). */
  readonly cascade?: Cascade;
}

/** A child the service deletes with its parent (a route with its edge, a rule with its policy). */
export interface CascadedObject {
  readonly kind: KindName;
  readonly id: string;
  /** The logical key in its ownership marker, when this scope manages it. */
  readonly key?: string;
  readonly parentId?: string;
  /** Module members set on it, removed with it. */
  readonly modules: readonly string[];
}

/** What a delete removes besides its target: children (depth first) and the target's modules. */
export interface Cascade {
  readonly objects: readonly CascadedObject[];
  readonly modules: readonly string[];
}

export const requestMethods = ['POST', 'PATCH', 'PUT', 'DELETE'] as const;
type RequestMethod = (typeof requestMethods)[number];

/** The id of the object whose key this is, filled in by the applier: the object is created earlier in the run. */
export interface RefValue {
  readonly ref: string;
}

/**
 * A sensitive value, never in the plan: the applier sends the value at `path` of the desired
 * object `key` (its fields, by response names) at the moment it sends the request.
 */
export interface SecretValue {
  readonly secret: { readonly key: string; readonly path: FieldPath };
}

/**
 * An object written as its entries, because a key is a {@link RefValue} (a weighted backend not
 * created yet) or because the object itself looks like a placeholder (a traffic policy member
 * named `ref`) and must be sent as it is.
 */
export interface EntriesValue {
  readonly entries: readonly (readonly [string | RefValue, unknown])[];
}

/**
 * One HTTP request of an operation. A `path` of parts is joined (a `RefValue` becomes the
 * URL-encoded id); in `body`, an object whose only member is `ref`, `secret` or `entries` is a
 * placeholder ({@link RefValue}, {@link SecretValue}, {@link EntriesValue}) and nothing else is.
 */
export interface OperationRequest {
  readonly method: RequestMethod;
  /** The path; as parts to join when it holds the id of an object created earlier in the run. */
  readonly path: string | readonly (string | RefValue)[];
  readonly body?: Readonly<Record<string, unknown>>;
}

/**
 * An observed entry (`observe: true`) and how its live object differs from it: reported, never
 * written. `before` is the live value, `after` the config's.
 */
export interface ObservedObject {
  readonly kind: KindName;
  readonly key: string;
  readonly liveId: string;
  /** Empty when the live object matches its entry. */
  readonly changes: readonly FieldChange[];
}

/**
 * A desired object with no object of its own while unmanaged objects look like it: the plan creates
 * it, and sync refuses to (a duplicate beside what may be the very object, its marker edited away).
 */
export interface Lookalike {
  readonly key: string;
  readonly kind: KindName;
  /** The unmanaged objects, each with what it has in common with the entry. */
  readonly objects: readonly {
    readonly kind: KindName;
    readonly id: string;
    /** What is the same: `description`, `domain`, `a hostport`, ... */
    readonly same: string;
  }[];
}

/** A live object no scope's marker claims (made by hand, or by a tool that leaves no marker). */
export interface UnmanagedObject {
  readonly kind: KindName;
  readonly id: string;
  /** Its natural key or, for kinds without one, its description; absent when it has neither. */
  readonly name?: string;
  /** For nested kinds (rules, routes): the id of the object it belongs to. */
  readonly parentId?: string;
}

export interface PlanSummary {
  readonly create: number;
  readonly update: number;
  readonly replace: number;
  readonly delete: number;
  readonly adopt: number;
  /** Objects kept under a new key (with their field changes, if any): never a delete. */
  readonly rename: number;
  /** Objects already equal to the desired state. */
  readonly unchanged: number;
  /**
   * Live objects this scope manages: those carrying its marker and the children that would go with
   * them (what the mass-delete guard compares `removed` against).
   */
  readonly managed: number;
  /** Live objects the plan removes: deletes, old halves of replaces, and their cascaded children. */
  readonly removed: number;
}

/** The guards a sync checks before its first write (docs/apply.md), by the name a script sees. */
export const syncGuards = ['lookalike', 'empty_config', 'mass_delete'] as const;
export type SyncGuard = (typeof syncGuards)[number];

/** What a sync of the plan would refuse, as `plan` shows it for review before the merge. */
export interface SyncRefusal {
  readonly guard: SyncGuard;
  /** Why, as `sync` says it after `refusing to sync: `. */
  readonly reason: string;
  /** What would go: a heading line, then the objects, at most 20 listed and the rest counted. */
  readonly details: readonly string[];
  /** The way through a reviewer takes (the config's `guards:`, reviewed with the change). */
  readonly howToProceed: string;
}

export interface Plan {
  readonly formatVersion: 2;
  readonly createdAt: string;
  readonly scope: string;
  /** The environment the plan is for, when the config declares environments: every rendering names it. */
  readonly environment?: string;
  /** The config paths the plan was computed from, as given. */
  readonly configPaths: readonly string[];
  /** Hash of the desired state (sensitive values folded in as salted hashes, never in clear). */
  readonly desiredFingerprint: string;
  /** Hash of the live state the plan was computed from; `apply plan.json` refuses when it changed. */
  readonly liveFingerprint: string;
  /** Ids of the live objects the desired keys already map to (what unchanged references resolve to). */
  readonly resolvedIds: Readonly<Record<string, string>>;
  readonly operations: readonly Operation[];
  readonly summary: PlanSummary;
  /** The observed entries, in key order: present when the config observes any object. */
  readonly observed?: readonly ObservedObject[];
  /** Entries created beside unmanaged look-alikes (sync refuses them): present when there are any. */
  readonly lookalikes?: readonly Lookalike[];
  /**
   * Live objects no scope's marker claims and no entry names (observed or adopted), by kind then
   * id; objects of other scopes are not listed.
   */
  readonly unmanaged: readonly UnmanagedObject[];
  /** Things a reviewer should know that are not operations (a token that will not be saved, ...). */
  readonly notes: readonly string[];
  /** The options the plan was computed with, so `apply plan.json` re-plans the same way. */
  readonly options: {
    readonly adopt: boolean;
    readonly noDelete: boolean;
    /** `--unprotect` keys: protected objects this plan may delete or replace. */
    readonly unprotect?: readonly string[];
    /** The environment the config was loaded for, when it declares environments. */
    readonly environment?: string;
  };
  /**
   * The collections `liveFingerprint` covers, in a stable order: `fetchLiveState(..., {kinds})`
   * with these gives the same fingerprint when nothing changed.
   */
  readonly liveKinds?: readonly KindName[];
  /** Broken `--policy` rules (docs/plan-output.md); absent when no policy was given. */
  readonly policy?: readonly PolicyFinding[];
  /**
   * The TLS edges the plan changes (the edge, its IP policies or their rules), each with the sample
   * connections whose outcome changes between the live and the desired edge (docs/traffic-policy.md,
   * "What-if in plans"). Set by the run after planning, never by the planner; absent when the plan
   * changes no edge that exists before and after.
   */
  readonly trafficChanges?: readonly TrafficEdgeChange[];
  /**
   * What `sync` would refuse in this plan: set by `plan` and `sync --dry-run` when a guard would
   * refuse it (the planner itself never sets it); `apply` checks the guards afresh either way.
   */
  readonly syncRefusal?: SyncRefusal;
}

/** How a `--policy` rule's finding counts: an error fails the check, a warning is shown. */
export type PolicySeverity = 'error' | 'warning';

/** Where a policy rule, or the config entry it judged, was written. */
export interface PolicyLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/** A broken rule: what every rendering (text, JSON, markdown, annotations) reports. */
export interface PolicyFinding {
  readonly rule: string;
  readonly severity: PolicySeverity;
  /** The object's key (`reserved_domains/app`). */
  readonly object: string;
  readonly message: string;
  /** The object's entry in the config, when it has one (a deleted object has none). */
  readonly location?: PolicyLocation;
}

/**
 * What the planner is told about the token file (`--token-output`): which objects' tokens it holds,
 * and whether `--recapture-tokens` replaces the others to capture a new one.
 */
export interface TokenFileView {
  readonly capturedIds: ReadonlySet<string>;
  readonly recapture: boolean;
}

/** How a connection fares at an edge: let through, refused, or not known offline. */
export const trafficVerdicts = ['allowed', 'refused', 'unknown'] as const;
type TrafficVerdict = (typeof trafficVerdicts)[number];

/** A sample connection's outcome at one side of the change. */
export interface TrafficOutcome {
  readonly verdict: TrafficVerdict;
  /** What decided it, as a reviewer reads it: `rule office`, `IP policy office`, `default` (nothing refused it). */
  readonly by: string;
}

/** Where an edge's sample connections came from: `--traffic-tests` files, or the edge's own rules. */
export const trafficSampleSources = ['tests', 'derived'] as const;
type TrafficSampleSource = (typeof trafficSampleSources)[number];

/** A sample connection whose outcome the plan changes. */
export interface TrafficOutcomeChange {
  /** The connection as a reviewer reads it: `203.0.113.7 (DE)`. */
  readonly connection: string;
  /** The traffic test it came from, for samples of `--traffic-tests`. */
  readonly test?: string;
  readonly before: TrafficOutcome;
  readonly after: TrafficOutcome;
}

/** One changed TLS edge and what its change does to the sample connections. */
export interface TrafficEdgeChange {
  /** The edge's key (`tls_edges/db`). */
  readonly edge: string;
  /** The operations that change it: its own, its IP policies' and their rules'. */
  readonly operations: readonly string[];
  readonly samples: TrafficSampleSource;
  /** How many sample connections ran through both sides. */
  readonly evaluated: number;
  /** Samples past the bound of 64 per edge, not evaluated. */
  readonly leftOut?: number;
  /** Why no sample was evaluated: the edge needs more of the plan's what-if limit than is left. */
  readonly notEvaluated?: string;
  /** Empty: no sample connection changes outcome. */
  readonly changes: readonly TrafficOutcomeChange[];
}
