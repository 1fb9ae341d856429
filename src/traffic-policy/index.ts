/** Traffic-policy CEL: the platform's variables, macros and actions, and the offline checker. */
export { checkPolicyExpression, type CelProblem } from './compile.js';
export { checkPolicyAction, policyActions, type ActionProblem } from './actions.js';
export { policyVariables, policyTypes, type PolicyVariable } from './variables.js';
export { globalFunctions, methods, namespacedFunctions, macrosSource } from './functions.js';
