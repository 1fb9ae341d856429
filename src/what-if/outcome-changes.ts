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
  type SafetyNet,
  type TrafficEdge,
  type TrafficTest,
} from '../traffic/index.js';
import { changedEdges, type ChangedEdge, type EdgeSide } from './edge-sides.js';
import { connectionLabel, derivedSamples, maxSamplesPerEdge } from './samples.js';

/**
 * Expression evaluations one plan's what-if may need, counted before any runs: for each edge, every
 * expression of both sides for every sample (the most its rules can need). Edges are taken in the
 * config's order; one that needs more than is left is not evaluated, and says so. 50,000 take
 * about 1.5 s on a loaded 2-core machine: the safety net (120 s) is far past them.
 */
const maxEvaluationsPerPlan = 50_000;

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

/**
 * The edge's samples: its traffic tests' connections when any test names it (the first
 * `maxSamplesPerEdge`, in file order), else derived ones.
 */
function samplesOf(
  edge: ChangedEdge,
  tests: readonly TrafficTest[],
): Pick<TrafficEdgeChange, 'samples' | 'leftOut'> & { list: Sample[] } {
  const named = tests.filter((t) => t.edge === edge.key);
  if (named.length > 0)
    return {
      samples: 'tests',
      list: named.slice(0, maxSamplesPerEdge).map((t) => ({ connection: t.connection, test: t.name })),
      ...(named.length > maxSamplesPerEdge ? { leftOut: named.length - maxSamplesPerEdge } : {}),
    };
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

/** The expressions one evaluation of `edge` may run: every rule's, when its policy is on. */
function expressionCount(edge: TrafficEdge): number {
  if (edge.policy?.enabled !== true) return 0;
  return edge.policy.inbound.reduce((n, rule) => n + rule.expressions.length, 0);
}

/** The samples whose verdict differs between the edge's two sides. */
async function outcomeChanges(
  edge: ChangedEdge,
  list: readonly Sample[],
  expressions: ExpressionEvaluator,
): Promise<TrafficOutcomeChange[]> {
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
  return changes;
}

/** How the what-if runs besides its inputs. */
export interface WhatIfOptions {
  /** Where the config's files are, for the rules' file:line. */
  readonly cwd?: string | undefined;
  /** The expressions' safety net; the default's for every command (a test makes it fire). */
  readonly net?: SafetyNet | undefined;
}

/**
 * The plan with `trafficChanges` when it changes a TLS edge that exists before and after; the plan
 * itself otherwise. `tests` are the `--traffic-tests` connections. A deterministic function of its
 * inputs: what is evaluated is decided by counts; a runaway expression stopped by the safety net
 * throws `EvaluationStoppedError` rather than answering otherwise.
 */
export async function withTrafficChanges(
  plan: Plan,
  desired: DesiredState,
  live: LiveState,
  tests: readonly TrafficTest[] = [],
  options: WhatIfOptions = {},
): Promise<Plan> {
  const edges = await changedEdges(plan, desired, live, options.cwd);
  if (edges.length === 0) return plan;
  const expressions = new ExpressionEvaluator(options.net);
  try {
    const trafficChanges: TrafficEdgeChange[] = [];
    let left = maxEvaluationsPerPlan;
    for (const edge of edges) {
      const { list, ...samples } = samplesOf(edge, tests);
      const head = { edge: edge.key, operations: edge.operations, ...samples };
      const needs = list.length * (expressionCount(edge.before.edge) + expressionCount(edge.after.edge));
      if (needs > left) {
        trafficChanges.push({
          ...head,
          evaluated: 0,
          notEvaluated: `it needs up to ${needs} expression evaluations, past the ${left} left of the plan's what-if limit of ${maxEvaluationsPerPlan}`,
          changes: [],
        });
        continue;
      }
      left -= needs;
      const changes = await outcomeChanges(edge, list, expressions);
      trafficChanges.push({ ...head, evaluated: list.length, changes });
    }
    return { ...plan, trafficChanges };
  } finally {
    await expressions.close();
  }
}
