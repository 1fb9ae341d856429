/**
 * Traffic what-if: a TLS edge evaluated offline for sample connections (the IP restriction module,
 * then the traffic policy's inbound rules), and traffic test files run against the desired state.
 */
export { evaluateEdge, type Decision, type Outcome } from './evaluate.js';
export {
  EvaluationStoppedError,
  expressionLimits,
  ExpressionEvaluator,
  type SafetyNet,
} from './expressions.js';
export { desiredTrafficModel } from './desired-edges.js';
export { trafficEdgeOf } from './edge-fields.js';
export { runTrafficTests, type TrafficTestResult } from './run-tests.js';
export { loadTrafficTests, type TrafficTest } from './load-tests.js';
export type { Connection } from './connection.js';
export type { TrafficEdge, TrafficIpPolicy } from './model.js';
