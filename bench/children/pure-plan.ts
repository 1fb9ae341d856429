/**
 * One pure plan (`buildPlan`, no HTTP) in a fresh process, so that a shape that grows badly can be
 * stopped at its time budget by killing the process.
 */
import { buildPlan } from '../../src/plan/index.js';
import { pureStates } from '../lib/synthetic.js';

export type Shape = 'steady state' | 'all creates' | 'all deletes';

export interface PurePlanArg {
  readonly n: number;
  readonly shape: Shape;
}

export interface PurePlanResult {
  readonly ms: number;
  readonly ops: number;
  readonly unchanged: number;
}

const scope = 'bench';

function timePlan(n: number, shape: Shape): PurePlanResult {
  const states = pureStates(n, scope, shape === 'all creates' ? 'empty' : 'matching');
  const desired = shape === 'all deletes' ? { scope, objects: [] } : states.desired;
  globalThis.gc?.();
  const t0 = performance.now();
  const plan = buildPlan(desired, states.live, {
    scope,
    adopt: false,
    noDelete: false,
    configPaths: [],
    now: new Date(),
  });
  return { ms: performance.now() - t0, ops: plan.operations.length, unchanged: plan.summary.unchanged };
}

const arg = JSON.parse(process.argv[2] ?? '{}') as PurePlanArg;
timePlan(Math.min(200, arg.n), arg.shape); // warm up the JIT
process.send?.(timePlan(arg.n, arg.shape));
