/** Policy rules (`--policy`): loaded, compiled, and run over the config and the plan. */
export { loadPolicies, PolicyFileError } from './load.js';
export { hasPolicyErrors, policyFindings } from './evaluate.js';
export { planFindings, policyRefusal, PolicyRefusal } from './refusal.js';
export type { PolicyRule } from './types.js';
export { RuleSandbox, type SandboxBounds } from './sandbox.js';
