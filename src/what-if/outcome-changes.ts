/** The outcome changes of each changed edge, added to the plan as `trafficChanges`. */
import type { LiveState } from '../live/index.js';
import type { Plan, TrafficEdgeChange, TrafficOutcome, TrafficOutcomeChange } from '../plan-format/index.js';
import type { DesiredState } from '../resources/index.js';
import {
  desiredTrafficModel,
  evaluateEdge,
  ExpressionEvaluator,
  loadTrafficTests,
  type Connection,
  type Outcome,
  type TrafficTest,
} from '../traffic/index.js';
import { changedEdges, type ChangedEdge, type EdgeSide } from './edge-sides.js';
import { connectionLabel, derivedSamples } from './samples.js';

/**
 * The tests of the `--traffic-tests` files under `paths`, checked against the config's TLS edges:
 * loaded before the account is contacted, a bad file refused with every problem at its line.
 */
export async function loadSampleTests(
  paths: readonly string[],
  desired: DesiredState,
  cwd?: string,
): Promise<TrafficTest[]> {
  if (paths.length === 0) return [];
  const model = await desiredTrafficModel(desired, cwd);
  return loadTrafficTests(paths, model.edges, cwd);
}

interface Sample {
  readonly connection: Connection;
  readonly test?: string;
}

/** The edge's samples: its traffic tests' connections when any test names it, else derived ones. */
function samplesOf(
  edge: ChangedEdge,
  tests: readonly TrafficTest[],
): Pick<TrafficEdgeChange, 'samples' | 'leftOut'> & { list: Sample[] } {
  const named = tests.filter((t) => t.edge === edge.key);
  if (named.length > 0)
    return { samples: 'tests', list: named.map((t) => ({ connection: t.connection, test: t.name })) };
  const derived = derivedSamples([edge.before, edge.after]);
  return {
    samples: 'derived',
    list: derived.samples.map((connection) => ({ connection })),
    ...(derived.leftOut > 0 ? { leftOut: derived.leftOut } : {}),
  };
}

/** The evaluator's outcome as the plan records it. */
function planOutcome(o: Outcome): TrafficOutcome {
  if (o.verdict === 'unknown') return { verdict: 'unknown', by: o.unknown?.reason ?? o.decision.detail };
  const verdict = o.verdict === 'allow' ? 'allowed' : 'refused';
  const { decision } = o;
  switch (decision.by) {
    case 'rule':
      return { verdict, by: `rule ${decision.name}` };
    case 'ip_restriction':
      return {
        verdict,
        by: decision.ipPolicy === undefined ? 'the IP restriction' : `IP policy ${decision.ipPolicy}`,
      };
    case 'default':
      return { verdict, by: 'default' };
  }
}

async function outcome(side: EdgeSide, connection: Connection, expressions: ExpressionEvaluator) {
  return planOutcome(await evaluateEdge(side.edge, connection, { ipPolicies: side.ipPolicies, expressions }));
}

async function edgeChange(
  edge: ChangedEdge,
  tests: readonly TrafficTest[],
  expressions: ExpressionEvaluator,
): Promise<TrafficEdgeChange> {
  const { list, ...samples } = samplesOf(edge, tests);
  const changes: TrafficOutcomeChange[] = [];
  for (const { connection, test } of list) {
    const before = await outcome(edge.before, connection, expressions);
    const after = await outcome(edge.after, connection, expressions);
    // The verdict is the outcome: the same verdict by another rule (a renamed one) is no change.
    if (before.verdict === after.verdict) continue;
    changes.push({
      connection: connectionLabel(connection),
      ...(test === undefined ? {} : { test }),
      before,
      after,
    });
  }
  return { edge: edge.key, operations: edge.operations, ...samples, evaluated: list.length, changes };
}

/**
 * The plan with `trafficChanges` when it changes a TLS edge that exists before and after; the plan
 * itself otherwise. `tests` are the `--traffic-tests` connections; `cwd` is where the config's
 * files are.
 */
export async function withTrafficChanges(
  plan: Plan,
  desired: DesiredState,
  live: LiveState,
  tests: readonly TrafficTest[] = [],
  cwd?: string,
): Promise<Plan> {
  const edges = await changedEdges(plan, desired, live, cwd);
  if (edges.length === 0) return plan;
  const expressions = new ExpressionEvaluator();
  try {
    const trafficChanges: TrafficEdgeChange[] = [];
    for (const edge of edges) trafficChanges.push(await edgeChange(edge, tests, expressions));
    return { ...plan, trafficChanges };
  } finally {
    await expressions.close();
  }
}
