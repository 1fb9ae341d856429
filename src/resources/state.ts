/**
 * The desired state: what the loader produces and the planner consumes. Plain data, serializable.
 */
import type { KindName } from './types.js';

/**
 * A reference inside the desired state, always a string: the key of another desired object
 * (`ip_policies/office`, contains a `/`) or a raw id of an object this config does not manage
 * (`ipp_...`, never contains a `/`). Strings keep references usable as map keys (weighted backends).
 */
type DesiredRef = string;

export function isObjectKey(ref: DesiredRef): boolean {
  return ref.includes('/');
}

/** The pin value asking for a new object although unmanaged look-alikes exist. */
export const newObjectPin = 'new';

interface SourceLocation {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  /** 1-based. */
  readonly column: number;
}

/** A path inside an object's fields, e.g. `['oidc', 'client_secret']`. */
export type FieldPath = readonly (string | number)[];

export interface DesiredObject {
  readonly kind: KindName;
  /**
   * Unique logical key: `<config map>/<name>` for top-level objects (`backends/main`), and
   * `<parent key>/<member>/<name>` for nested ones (`ip_policies/office/rules/10.0.0.0/8`,
   * `https_edges/web/routes/path_prefix:/api`).
   */
  readonly key: string;
  /** The logical name within its kind (or within its parent, for nested objects). */
  readonly name: string;
  /** For nested objects: the key of the parent object. */
  readonly parentKey?: string;
  /**
   * The config's `id:` member: the live object this entry is (`ak_...`), paired before any natural
   * key, or `new` when the user wants a new object although unmanaged look-alikes exist.
   */
  readonly pin?: string;
  /**
   * Writable fields by their response names, exactly as the user wrote them (defaults not filled,
   * `{env}`/`{file}` already resolved to their values); references as `DesiredRef` strings.
   * Modules are members holding their module body.
   */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Paths of values that are secret (secret fields, and values that came from `{env}` or `{file}`). */
  readonly sensitive: readonly FieldPath[];
  /** Where the object is declared. */
  readonly source: SourceLocation;
  /**
   * `protect` as written: `true` records protection in the live object's marker, `false` lifts
   * it; absent keeps whatever the marker says (protection does not vanish with a lost line).
   */
  readonly protect?: boolean;
  /**
   * `ignore:` paths: fields owned elsewhere, sent on create when given and never compared or
   * written afterwards. Absent when the entry has none.
   */
  readonly ignore?: readonly FieldPath[];
  /**
   * `observe: true` (on the entry, inherited by its nested items): the live object, paired by
   * `id:` or natural key whoever manages it, is read and compared but never written.
   */
  readonly observe?: true;
}

/**
 * A `moved:` entry of the config: the live object marked `from` is the entry `to` now, kept with
 * its id. The loader resolves chains, so `to` is always a key of the desired state.
 */
export interface DesiredMove {
  readonly from: string;
  readonly to: string;
  /** Where the entry is written. */
  readonly source: SourceLocation;
}

/** The config's `guards:` (src/config/guards.ts): what sync refuses, as reviewed with the config. */
export interface GuardSettings {
  readonly maxDeletePercent?: number;
  readonly maxDeleteMinManaged?: number;
  readonly allowEmpty?: boolean;
}

export interface DesiredState {
  /** Ownership scope; objects marked with another scope are never touched. */
  readonly scope: string;
  /** Limits sync applies, when the config sets them. */
  readonly guards?: GuardSettings;
  /** In dependency-free declaration order; the planner orders them. */
  readonly objects: readonly DesiredObject[];
  /** The config's `moved:` entries, chains resolved; absent when there are none. */
  readonly moves?: readonly DesiredMove[];
}
