/** Policy rules (`--policy`): CEL checks a team writes over its config and its plans. */

import type { PolicyLocation, PolicySeverity } from '../plan-format/index.js';

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
