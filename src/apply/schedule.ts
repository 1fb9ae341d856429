/**
 * Runs a dependency graph of tasks with bounded concurrency. It knows nothing about the API: it
 * decides only what may start, and when the run stops.
 */

/** A node of the graph: an id and the ids that must succeed before it starts. */
export interface Task {
  readonly id: string;
  readonly dependsOn: readonly string[];
}

export interface ScheduleOptions {
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
 * @throws {Error} naming the offending task
 */
export function checkGraph(tasks: readonly Task[]): void {
  const ids = new Set(tasks.map((t) => t.id));
  if (ids.size !== tasks.length) throw new Error('the plan has two operations with the same id');
  for (const t of tasks) {
    const missing = t.dependsOn.find((d) => !ids.has(d));
    if (missing !== undefined)
      throw new Error(`operation '${t.id}' depends on unknown operation '${missing}'`);
  }
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, 'visiting' | 'visited'>();
  const visit = (id: string, trail: string[]): void => {
    if (state.get(id) === 'visited') return;
    if (state.get(id) === 'visiting')
      throw new Error(`the plan has a dependency cycle: ${[...trail, id].join(' -> ')}`);
    state.set(id, 'visiting');
    for (const d of byId.get(id)?.dependsOn ?? []) visit(d, [...trail, id]);
    state.set(id, 'visited');
  };
  for (const t of tasks) visit(t.id, []);
}

/**
 * Runs `run` for every task once all its dependencies are done, at most `parallelism` at a time,
 * starting ready tasks in the order given (the plan's order, so output is predictable).
 * Resolves when nothing is running and nothing more may start; never rejects because a task did.
 */
export async function runSchedule<T extends Task>(
  tasks: readonly T[],
  options: ScheduleOptions,
  run: (task: T) => Promise<void>,
): Promise<Map<string, TaskOutcome>> {
  checkGraph(tasks);
  const outcomes = new Map<string, TaskOutcome>();
  const pending = new Set(tasks);
  let running = 0;
  let stopped = false;

  return new Promise((resolve) => {
    const blocker = (task: T): string | undefined =>
      task.dependsOn.find((d) => {
        const o = outcomes.get(d);
        return o !== undefined && o.status !== 'done';
      });
    const ready = (task: T): boolean => task.dependsOn.every((d) => outcomes.get(d)?.status === 'done');

    const pump = (): void => {
      if (options.signal?.aborted) stopped = true;
      // Settle what can never run, repeatedly: a blocked task blocks its own dependants.
      for (let changed = true; changed;) {
        changed = false;
        for (const task of pending) {
          const by = blocker(task);
          if (by !== undefined) {
            outcomes.set(task.id, { status: 'not-attempted', blockedBy: by });
            pending.delete(task);
            changed = true;
          }
        }
      }
      if (!stopped) {
        for (const task of pending) {
          if (running >= options.parallelism) break;
          if (!ready(task)) continue;
          pending.delete(task);
          running++;
          void run(task).then(
            () => finish(task, { status: 'done' }),
            (error: unknown) => finish(task, { status: 'failed', error }),
          );
        }
      }
      if (running === 0) {
        for (const task of pending) outcomes.set(task.id, { status: 'not-attempted' });
        pending.clear();
        resolve(outcomes);
      }
    };

    const finish = (task: T, outcome: TaskOutcome): void => {
      running--;
      outcomes.set(task.id, outcome);
      if (outcome.status === 'failed' && !options.continueOnError) stopped = true;
      pump();
    };

    options.signal?.addEventListener('abort', pump, { once: true });
    pump();
  });
}
