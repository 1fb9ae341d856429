/**
 * The planner: a pure function of the desired state (`config/`) and the live state (`live/`) to a
 * `Plan` (`plan-format/`). `src/pipeline/` composes it with the two readers.
 */
export { buildPlan } from './build.js';
export { sensitiveValues } from './secrets.js';
export { indexChildren, cascadeOf } from './cascade.js';
export { formatMetadata, parseMetadata } from '../resources/index.js';
