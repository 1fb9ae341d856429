/**
 * Traffic what-if: a TLS edge evaluated offline for sample connections (the IP restriction module,
 * then the traffic policy's inbound rules), and traffic test files run against the desired state.
 */
export { evaluateEdge, type Decision, type Outcome } from './evaluate.js';
export { ExpressionEvaluator } from './expressions.js';
export { desiredTrafficModel } from './desired-edges.js';
export { runTrafficTests, type TrafficTestResult } from './run-tests.js';
export type { Connection } from './connection.js';
export type { TrafficAction, TrafficEdge, TrafficIpPolicy, TrafficRule } from './model.js';
