/**
 * The vocabulary of resource descriptors. Every part of acctsync (loader, planner, applier, exporter,
 * emulator) learns what a kind looks like from these data, never from per-kind code.
 */
import type { EventStem } from './event-types.js';

/** A named value format with a validator in `formats/` (see `checkFormat`). */
export type FormatName =
  | 'cidr'
  | 'hostname'
  | 'domain'
  | 'hostport'
  | 'ssh-acl-rule'
  | 'ssh-public-key'
  | 'pem-certificate'
  | 'pem-certificate-chain'
  | 'pem-private-key'
  | 'url'
  | 'event-type'
  /** A certificate serial number in hex; the service may pad it to whole bytes (`054ba7...`). */
  | 'serial-number';

/** The value type of a field, written the way the API writes it. */
export type FieldType =
  | {
      readonly type: 'string';
      readonly maxBytes?: number;
      readonly maxChars?: number;
      readonly format?: FormatName;
      readonly minLength?: number;
      /** Code answered when the value is too long, when the service has a dedicated one (420, 421). */
      readonly tooLongCode?: number;
    }
  | { readonly type: 'boolean' }
  | { readonly type: 'integer'; readonly min: number; readonly max: number }
  | { readonly type: 'number'; readonly min?: number; readonly max?: number; readonly errorCode?: number }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | {
      readonly type: 'list';
      readonly items: FieldType;
      readonly ordered: boolean;
      readonly maxItems?: number;
    }
  | {
      readonly type: 'map';
      readonly values: FieldType;
      readonly keyRef?: RefTarget;
      /** The service stores keys lower-cased (HTTP header names), so keys compare case-insensitively. */
      readonly lowerCaseKeys?: boolean;
    }
  | { readonly type: 'object'; readonly fields: Fields; readonly rules?: readonly Rule[] }
  | { readonly type: 'ref'; readonly target: RefTarget; readonly many: boolean }
  | { readonly type: 'module'; readonly module: ModuleDescriptor }
  | { readonly type: 'json' };

/**
 * What a reference points at. `readShape` says how the API returns it: as `Ref` objects
 * (`{id, uri}`) or as bare ids (failover and weighted backends list their children's ids).
 */
export interface RefTarget {
  readonly kinds: readonly KindName[];
  readonly readShape: 'ref' | 'id';
}

/** When a field may be written. */
export type Writability =
  /** set at create, changeable by PATCH */
  | 'mutable'
  /** set at create only; changing it means a new object (gaps.md "Identity and immutability") */
  | 'immutable'
  /** only a PATCH takes it: the planner creates first, then patches */
  | 'update-only'
  /** computed by the service, never written */
  | 'read-only';

export interface Field {
  readonly type: FieldType;
  /** One line for the JSON Schema and the docs. */
  readonly description: string;
  readonly write: Writability;
  /** The name in request bodies when it differs from the response name (`ip_policy_ids` vs `ip_policies`). */
  readonly writeAs?: string;
  /** Required in a create body. */
  readonly required?: boolean;
  /** The value the service returns when the field was never written. */
  readonly default?: unknown;
  /** The service may return `null` for this field. */
  readonly nullable?: boolean;
  /**
   * Request bodies may send `null` or `""` for it, meaning "not set": a deprecated member whose
   * unset value the service returns as `""`, which clients send back as they read it.
   */
  readonly blankIsUnset?: boolean;
  /**
   * Deprecated and ignored by the service: whatever is written, it answers the default. Never
   * compared (so never a change, never a replacement); the loader warns that it is ignored.
   */
  readonly serviceIgnores?: true;
  /** The service leaves the member out of its answers while it holds `""`: absent means `""`. */
  readonly omittedWhenEmpty?: true;
  /**
   * What the service stores when a write leaves the member out, where that differs from `default`
   * (acctsync's, shown in plans): acctsync then sends its default explicitly (see `sentExplicitly`).
   */
  readonly serviceDefault?: unknown;
  /**
   * Accepted on write and never returned as written (returned as `""`, `null` or not at all), so
   * the planner compares it by a salted hash kept in the ownership marker.
   */
  readonly writeOnly?: boolean;
  /** A secret: masked as `(sensitive)` in every output, never logged. */
  readonly secret?: boolean;
  /**
   * The service fills it in when the desired state leaves it unset; compare only when set. With
   * `whileSet`, only while that sibling field is set (non-null): otherwise unset means the default.
   */
  readonly serverFilled?: true | { readonly whileSet: string };
}

export type Fields = Readonly<Record<string, Field>>;

/** A problem with a value, as data: the emulator answers it as an API error, the loader as a diagnostic. */
export interface Violation {
  /** Path of the offending value inside the checked body (names as written in that body). */
  readonly path: readonly (string | number)[];
  readonly message: string;
  /** The `ERR_SVC_<n>` number the service answers with. */
  readonly code: number;
  /** How to fix it, for the loader's report (the service has no such member). */
  readonly hint?: string;
  /** Where inside the string value at `path` the problem is (a CEL token), 0-based. */
  readonly offset?: number;
}

/** A cross-field rule: exclusivity, "exactly one of", dependent fields. */
export interface Rule {
  readonly name: string;
  readonly description: string;
  /** Checks a body whose keys use the names given by `names`. */
  readonly check: (body: Readonly<Record<string, unknown>>, names: FieldNaming) => Violation[];
}

/** Which field names a body uses: the API request names (`writeAs`) or the response/config names. */
export type FieldNaming = 'write' | 'read';

/** A module of an edge or route: a singleton object replaced with PUT and removed with DELETE. */
export interface ModuleDescriptor {
  /** Path segment under the owning object (`oidc`, `ip_restriction`, ...). */
  readonly name: string;
  readonly title: string;
  readonly fields: Fields;
  readonly rules: readonly Rule[];
}

/** The kinds this build describes; `descriptors` holds one for each. */
export type BuiltInKindName =
  | 'api_keys'
  | 'credentials'
  | 'ssh_credentials'
  | 'ip_policies'
  | 'ip_policy_rules'
  | 'ip_restrictions'
  | 'reserved_addrs'
  | 'reserved_domains'
  | 'endpoint_configurations'
  | 'http_response_backends'
  | 'failover_backends'
  | 'tunnel_group_backends'
  | 'weighted_backends'
  | 'tls_edges'
  | 'https_edges'
  | 'https_edge_routes'
  | 'agent_ingresses'
  | 'certificate_authorities'
  | 'tls_certificates'
  | 'event_destinations'
  | 'event_subscriptions'
  | 'event_sources'
  | 'tunnel_sessions';

/** A kind of a registry built beside the built-in ones (see `KindRegistry.with`). */
export type RegisteredKindName = string & { readonly registeredKind: true };

export type KindName = BuiltInKindName | RegisteredKindName;

/** Where a kind lives in the desired-state YAML. */
interface ConfigPlacement {
  /** Top-level map of the config (`backends` holds four kinds). */
  readonly key: string;
  /** For kinds sharing a map: the member naming the variant (`http_response`), whose fields sit under it. */
  readonly variant?: string;
  /** For children written inside their parent entry: the parent's member holding the list (`rules`, `routes`). */
  readonly nestedIn?: { readonly parentKind: KindName; readonly member: string };
}

/** How a child object hangs off its parent. */
interface ParentLink {
  readonly kind: KindName;
  /**
   * `path`: the parent id is a path parameter (`/edges/https/{edge_id}/routes`) and the record
   * carries it as `field`; `field`: the child is a top-level collection with a reference field.
   */
  readonly via: 'path' | 'field';
  /** `edge_id`, `ip_policy`, `subscription_id`. */
  readonly field: string;
  /** The parent's record member that embeds its children, when it does (`routes`). */
  readonly embeddedAs?: string;
}

export interface KindDescriptor {
  readonly kind: KindName;
  /** Singular noun for messages: "IP policy". */
  readonly title: string;
  /** Its plural, as written: "IP policies". */
  readonly titlePlural: string;
  /** The article the title takes as it is read aloud: "an IP policy", "a TLS edge". */
  readonly article: 'a' | 'an';
  /** Collection path; `{name}` segments are filled from the parent (`/edges/https/{edge_id}/routes`). */
  readonly path: string;
  /** Array member of the list envelope; absent when the API has no list endpoint. */
  readonly listMember?: string;
  /** Id prefix including the underscore (`ipp_`); absent for objects keyed otherwise (event sources). */
  readonly idPrefix?: string;
  /** The member that identifies an object in its path when it is not `id` (event sources: `type`). */
  readonly pathKey?: string;
  readonly fields: Fields;
  readonly rules: readonly Rule[];
  /** Which standard operations exist. */
  readonly operations: {
    readonly create: boolean;
    readonly list: boolean;
    readonly get: boolean;
    readonly update: boolean;
    readonly delete: boolean;
  };
  readonly parent?: ParentLink;
  /**
   * Fields whose values identify an object in the real world (a domain, a CIDR within its policy,
   * a PEM): used for adoption, export names and the service's 409 on duplicates.
   */
  readonly naturalKey?: {
    readonly fields: readonly string[];
    /** Unique within the parent only. */
    readonly perParent?: boolean;
    /**
     * The service refuses a second object holding the same key with 409 and `code`. Kinds with the
     * same `space` compete for the same values (TLS and HTTPS edges for hostports).
     */
    readonly claim?: { readonly space: string; readonly code: number };
  };
  /** Event type stem (`ip_policy` → `ip_policy_created.v0`), when the kind emits events. */
  readonly eventStem?: EventStem;
  /** The member holding a token returned only by the create response. */
  readonly tokenField?: string;
  /**
   * Its objects are what acctsync itself authenticates with (API keys): deleting one may cut off
   * the run, so such deletes run last, with a warning.
   */
  readonly authenticatesClient?: boolean;
  /** Present when users manage this kind in the desired-state YAML. */
  readonly config?: ConfigPlacement;
  /** Record members present in responses but not modelled as fields (always `id`, `uri`, ...). */
  readonly hasCreatedAt: boolean;
  /**
   * A record with this member set belongs to the service, not the user (a TLS certificate it issued
   * under a certificate management policy: `issued_at`): never exported, planned, adopted or deleted.
   */
  readonly serviceOwnedWhenSet?: string;
  /** Agent ingresses return `uri` as a path, not an absolute URL. */
  readonly uriIsPath?: boolean;
}
