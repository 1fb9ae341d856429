/**
 * The plan's what-if: every TLS edge the plan changes, run before (the live edge) and after (the
 * desired one) over sample connections, and the connections whose outcome changes. A pure step
 * after planning over the plan's own inputs (the planner never runs it), and a deterministic
 * function of them: samples are capped per edge, expression evaluations per plan and an
 * expression's size by counts; time and memory only stop a runaway, as an error
 * (docs/traffic-policy.md, "What-if limits").
 */
export { loadSampleTests, withTrafficChanges, type WhatIfOptions } from './outcome-changes.js';
