/** Traffic-policy CEL: the platform's variables, macros and actions, and the offline checker. */
export { checkPolicyExpression, compilePolicyExpression } from './compile.js';
export { checkPolicyAction, policyActions } from './actions.js';
export { policyVariables } from './variables.js';
export { globalFunctions, methods, namespacedFunctions } from './functions.js';
export { evaluationProgram, variableOfAlias } from './evaluation-program.js';
export { flatAlias } from './environment.js';
