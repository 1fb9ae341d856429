/**
 * Runs a dependency graph of tasks with bounded concurrency. It knows nothing about the API: it
 * decides only what may start, and when the run stops.
 */
import { findCycle, MinHeap } from '../graph.js';

/** A node of the graph: an id and the ids that must succeed before it starts. */
export interface Task {
  readonly id: string;
  readonly dependsOn: readonly string[];
}

interface ScheduleOptions {
  /** Most tasks running at once (at least 1). */
  readonly parallelism: number;
  /**
   * After a failure, keep starting tasks that do not depend on it (directly or not). Otherwise no new
   * task starts after the first failure; those already running finish.
   */
  readonly continueOnError: boolean;
  /** Stops starting new tasks (Ctrl-C); running ones finish. */
  readonly signal?: AbortSignal;
}

export type TaskOutcome =
  | { readonly status: 'done' }
  | { readonly status: 'failed'; readonly error: unknown }
  /** `blockedBy`: the failed (or itself blocked) dependency; absent when the run stopped. */
  | { readonly status: 'not-attempted'; readonly blockedBy?: string };

/**
 * Checks that every dependency names a task of the graph and that the graph has no cycle, before
 * anything runs: a broken plan must fail before its first write, not halfway through.
 * Linear in tasks plus dependencies.
 * @throws {Error} naming the offending task
 */
export function checkGraph(tasks: readonly Task[]): void {
  const byId = new Map<string, Task>();
  for (const t of tasks) byId.set(t.id, t);
  if (byId.size !== tasks.length) throw new Error('the plan has two operations with the same id');
  for (const t of tasks) {
    const missing = t.dependsOn.find((d) => !byId.has(d));
    if (missing !== undefined)
      throw new Error(`operation '${t.id}' depends on unknown operation '${missing}'`);
  }
  const cycle = findCycle(byId.keys(), (id) => (byId.get(id) as Task).dependsOn);
  if (cycle !== undefined) throw new Error(`the plan has a dependency cycle: ${cycle.path.join(' -> ')}`);
}

/** The graph as the scheduler walks it, by task index. */
interface IndexedGraph {
  /** waiting[i]: distinct dependencies of task i not done yet. */
  readonly waiting: number[];
  /** dependants[i]: distinct tasks that wait for task i. */
  readonly dependants: readonly (readonly number[])[];
  /** Tasks waiting for nothing, by plan position. */
  readonly ready: MinHeap<number>;
}

function indexGraph(tasks: readonly Task[]): IndexedGraph {
  const n = tasks.length;
  const indexOf = new Map<string, number>();
  for (let i = 0; i < n; i++) indexOf.set((tasks[i] as Task).id, i);
  const waiting = new Array<number>(n).fill(0);
  const dependants: number[][] = Array.from({ length: n }, () => []);
  const ready = new MinHeap<number>((a, b) => a < b);
  for (let i = 0; i < n; i++) {
    const deps = new Set((tasks[i] as Task).dependsOn);
    waiting[i] = deps.size;
    for (const d of deps) (dependants[indexOf.get(d) as number] as number[]).push(i);
    if (deps.size === 0) ready.push(i);
  }
  return { waiting, dependants, ready };
}

/**
 * Settles every task that can no longer run because `failed` did not succeed: its dependants,
 * theirs, and so on. Each names as `blockedBy` its first dependency (in its own order) that had
 * not succeeded when it was settled, going through them in plan order until all are settled.
 */
function blockDependants(
  tasks: readonly Task[],
  graph: IndexedGraph,
  outcomes: Map<string, TaskOutcome>,
  failed: number,
): void {
  const affected = new Set<number>();
  const stack = [failed];
  while (stack.length > 0) {
    for (const d of graph.dependants[stack.pop() as number] as readonly number[]) {
      if (affected.has(d) || outcomes.has((tasks[d] as Task).id)) continue;
      affected.add(d);
      stack.push(d);
    }
  }
  let left = [...affected].sort((a, b) => a - b);
  while (left.length > 0) {
    const still: number[] = [];
    for (const i of left) {
      const task = tasks[i] as Task;
      const by = task.dependsOn.find((d) => {
        const o = outcomes.get(d);
        return o !== undefined && o.status !== 'done';
      });
      if (by === undefined) still.push(i);
      else outcomes.set(task.id, { status: 'not-attempted', blockedBy: by });
    }
    left = still;
  }
}

/**
 * Runs `run` for every task once all its dependencies are done, at most `parallelism` at a time,
 * starting ready tasks in the order given (the plan's order, so output is predictable).
 * Resolves when nothing is running and nothing more may start; never rejects because a task did.
 *
 * Each task counts the dependencies it still waits for; a task whose count reaches zero joins a
 * ready queue ordered by plan position. A completion costs work proportional to its dependants
 * (plus a heap step), not to the number of pending tasks.
 */
export async function runSchedule<T extends Task>(
  tasks: readonly T[],
  options: ScheduleOptions,
  run: (task: T) => Promise<void>,
): Promise<Map<string, TaskOutcome>> {
  checkGraph(tasks);
  const outcomes = new Map<string, TaskOutcome>();
  const graph = indexGraph(tasks);
  const { waiting, dependants, ready } = graph;
  let running = 0;
  let stopped = false;
  let finished = false;

  return new Promise((resolve) => {
    const pump = (): void => {
      if (finished) return;
      if (options.signal?.aborted) stopped = true;
      while (!stopped && running < options.parallelism && ready.size > 0) {
        const i = ready.pop() as number;
        const task = tasks[i] as T;
        running++;
        void run(task).then(
          () => finish(i, { status: 'done' }),
          (error: unknown) => finish(i, { status: 'failed', error }),
        );
      }
      if (running === 0) {
        finished = true;
        options.signal?.removeEventListener('abort', pump);
        for (const task of tasks) {
          if (!outcomes.has(task.id)) outcomes.set(task.id, { status: 'not-attempted' });
        }
        resolve(outcomes);
      }
    };

    const finish = (i: number, outcome: TaskOutcome): void => {
      running--;
      outcomes.set((tasks[i] as T).id, outcome);
      if (outcome.status === 'done') {
        for (const d of dependants[i] as readonly number[]) {
          const left = (waiting[d] as number) - 1;
          waiting[d] = left;
          if (left === 0) ready.push(d);
        }
      } else {
        if (!options.continueOnError) stopped = true;
        blockDependants(tasks, graph, outcomes, i);
      }
      pump();
    };

    options.signal?.addEventListener('abort', pump, { once: true });
    pump();
  });
}
