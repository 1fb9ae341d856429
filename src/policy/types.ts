/** Policy rules (`--policy`): CEL checks a team writes over its config and its plans. */

type PolicySeverity = 'error' | 'warning';

/** A rule as loaded from a policy file, its expression compiled. */
export interface PolicyRule {
  readonly name: string;
  /** `object`: each desired object; `change`: each planned change. */
  readonly on: 'object' | 'change';
  /** Only objects (or changes) of these kinds; every kind when absent. */
  readonly kinds?: readonly string[];
  readonly expression: string;
  readonly message: string;
  readonly severity: PolicySeverity;
  /** Where the rule was written. */
  readonly location: PolicyLocation;
}

interface PolicyLocation {
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
