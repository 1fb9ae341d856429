/**
 * A TLS edge as the offline evaluator reads it: only what decides whether a connection is let in
 * (the IP restriction module, the traffic policy's inbound rules, which modules are on), from the
 * desired state (`desired-edges.ts`) or from a live record alike. References to IP policies are
 * opaque strings (a desired key `ip_policies/office` or a live id `ipp_...`) looked up in the
 * evaluation's context.
 */

/** Where a rule is written, when it is known. */
export interface TrafficLocation {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export interface TrafficAction {
  readonly type: string;
  readonly config?: Readonly<Record<string, unknown>> | null;
}

/** One inbound rule of the edge's traffic policy. */
export interface TrafficRule {
  /** The rule's name, or `inbound[i]` for a rule written without one. */
  readonly name: string;
  /** All must be true for the actions to run; none means every connection. */
  readonly expressions: readonly string[];
  readonly actions: readonly TrafficAction[];
  readonly location?: TrafficLocation;
}

export interface TrafficEdge {
  /** `tls_edges/db`. */
  readonly key: string;
  readonly hostports: readonly string[];
  /** The IP restriction module, when the edge has one (enabled or not). */
  readonly ipRestriction?: {
    readonly enabled: boolean;
    readonly ipPolicies: readonly string[];
    readonly location?: TrafficLocation;
  };
  readonly mutualTls?: { readonly enabled: boolean };
  /** The traffic policy, when the edge has one. */
  readonly policy?: { readonly enabled: boolean; readonly inbound: readonly TrafficRule[] };
}

/** An IP policy's rules, as the evaluator needs them. */
export interface TrafficIpPolicy {
  /** How a reader names it: `office` (or the id of a policy not in the config). */
  readonly name: string;
  readonly rules: readonly {
    readonly cidr: string;
    readonly action: 'allow' | 'deny';
    readonly location?: TrafficLocation;
  }[];
}
