/**
 * Traffic what-if: a TLS edge evaluated offline for sample connections (the IP restriction module,
 * then the traffic policy's inbound rules), and traffic test files run against the desired state.
 */
export {
  evaluateEdge,
  type ActionRun,
  type Decision,
  type EvaluationContext,
  type Outcome,
  type Verdict,
} from './evaluate.js';
export { ExpressionEvaluator, type ExpressionResult } from './expressions.js';
export { desiredTrafficModel, type TrafficModel } from './desired-edges.js';
export type { Connection } from './connection.js';
export type { TrafficAction, TrafficEdge, TrafficIpPolicy, TrafficLocation, TrafficRule } from './model.js';
