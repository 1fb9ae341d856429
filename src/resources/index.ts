/** Resource kinds as data: descriptors, their rules, the shared validator and shape conversions. */
export * from './types.js';
export * from './builtin-kinds.js';
export * from './registry.js';
export { aTitle, aTitleAtStart, anyOf, countOf } from './titles.js';
export { pickFields } from './own-fields.js';
export * from './error-codes.js';
export * from './event-types.js';
export { validateBody } from './validate.js';
export { checkFormat } from './format-check.js';
export { formatExpectations, pemFormats, standardPemLabels } from './format-expectations.js';
export * from './shape.js';
export * from './walk.js';
export { ignoredPathProblem, withoutPaths } from './ignored.js';
export * from './references.js';
export * from './state.js';
export { tunnelSessionCommands, type TunnelSessionCommand } from './kinds/sessions.js';
export * from './identity.js';
export { serverFills } from './server-filled.js';
