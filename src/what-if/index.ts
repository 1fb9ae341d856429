/**
 * The plan's what-if: every TLS edge the plan changes, run before (the live edge) and after (the
 * desired one) over sample connections, and the connections whose outcome changes. A pure step
 * after planning over the plan's own inputs (the planner never runs it), bounded like the
 * evaluation itself: derived samples are capped per edge, and every expression runs in the
 * bounded sandbox (docs/traffic-policy.md, "What-if in plans").
 */
export { loadSampleTests, withTrafficChanges } from './outcome-changes.js';
