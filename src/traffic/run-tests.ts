/**
 * Runs traffic tests against the desired state, offline: each test's connection evaluated on its
 * edge (`evaluate.ts`), its outcome compared with what the test expects.
 */
import type { DesiredState } from '../resources/index.js';
import { desiredTrafficModel } from './desired-edges.js';
import { evaluateEdge, type Decision, type Outcome } from './evaluate.js';
import { ExpressionEvaluator, type SafetyNet } from './expressions.js';
import { loadTrafficTests, type TrafficTest } from './load-tests.js';

export interface TrafficTestResult {
  readonly test: TrafficTest;
  readonly outcome: Outcome;
  readonly passed: boolean;
}

/** Whether `by` names what decided: a rule or module by name, or the IP policy whose rule decided. */
function decidedBy(decision: Decision, by: string): boolean {
  return decision.name === by || decision.ipPolicy === by;
}

function passes(test: TrafficTest, outcome: Outcome): boolean {
  return outcome.verdict === test.expect && (test.by === undefined || decidedBy(outcome.decision, test.by));
}

/**
 * Loads the tests files under `paths` against `state`'s TLS edges (refusing a bad file with every
 * problem at its line) and runs every test, in file order. A runaway expression stopped by the
 * safety net (`net`, the default's for every command) throws `EvaluationStoppedError`: a test's
 * outcome never depends on how fast the machine is.
 */
export async function runTrafficTests(
  state: DesiredState,
  paths: readonly string[],
  options: { readonly cwd?: string; readonly net?: SafetyNet } = {},
): Promise<TrafficTestResult[]> {
  const cwd = options.cwd ?? process.cwd();
  const model = await desiredTrafficModel(state, cwd);
  const tests = await loadTrafficTests(paths, model.edges, cwd);
  const expressions = new ExpressionEvaluator(options.net);
  try {
    const out: TrafficTestResult[] = [];
    for (const test of tests) {
      const edge = model.edges.get(test.edge)!;
      const outcome = await evaluateEdge(edge, test.connection, {
        ipPolicies: model.ipPolicies,
        expressions,
      });
      out.push({ test, outcome, passed: passes(test, outcome) });
    }
    return out;
  } finally {
    await expressions.close();
  }
}
