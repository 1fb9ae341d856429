/** Policy rules (`--policy`): loaded, compiled, and run over the config and the plan. */
export { loadPolicies, PolicyFileError } from './load.js';
export { changeFindings, hasPolicyErrors, objectFindings } from './evaluate.js';
export type { PolicyRule } from './types.js';
