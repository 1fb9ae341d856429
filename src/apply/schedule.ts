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
 * Linear in tasks plus dependencies (an iterative depth-first walk: no recursion limit on long chains).
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
  const state = new Map<string, 'visiting' | 'visited'>();
  // The path from the walk's root: ids, and how many dependencies of each were looked at.
  const path: string[] = [];
  const next: number[] = [];
  for (const root of tasks) {
    if (state.has(root.id)) continue;
    state.set(root.id, 'visiting');
    path.push(root.id);
    next.push(0);
    while (path.length > 0) {
      const top = path.length - 1;
      const deps = (byId.get(path[top] as string) as Task).dependsOn;
      const i = next[top] as number;
      if (i >= deps.length) {
        state.set(path[top] as string, 'visited');
        path.pop();
        next.pop();
        continue;
      }
      next[top] = i + 1;
      const d = deps[i] as string;
      const s = state.get(d);
      if (s === 'visited') continue;
      if (s === 'visiting') throw new Error(`the plan has a dependency cycle: ${[...path, d].join(' -> ')}`);
      state.set(d, 'visiting');
      path.push(d);
      next.push(0);
    }
  }
}

/** A binary min-heap of task indexes: ready tasks start in plan order. */
class IndexHeap {
  readonly #items: number[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(value: number): void {
    const items = this.#items;
    let i = items.length;
    items.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent] as number;
      if (p <= value) break;
      items[i] = p;
      i = parent;
    }
    items[i] = value;
  }

  /** The smallest index; the heap must not be empty. */
  pop(): number {
    const items = this.#items;
    const top = items[0] as number;
    const last = items.pop() as number;
    const n = items.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && (items[r] as number) < (items[l] as number) ? r : l;
        if ((items[c] as number) >= last) break;
        items[i] = items[c] as number;
        i = c;
      }
      items[i] = last;
    }
    return top;
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
  const n = tasks.length;
  const indexOf = new Map<string, number>();
  for (let i = 0; i < n; i++) indexOf.set((tasks[i] as T).id, i);
  // waiting[i]: distinct dependencies of task i not done yet; dependants[i]: distinct tasks that wait for i.
  const waiting = new Array<number>(n).fill(0);
  const dependants: number[][] = Array.from({ length: n }, () => []);
  const ready = new IndexHeap();
  for (let i = 0; i < n; i++) {
    const deps = new Set((tasks[i] as T).dependsOn);
    waiting[i] = deps.size;
    for (const d of deps) (dependants[indexOf.get(d) as number] as number[]).push(i);
    if (deps.size === 0) ready.push(i);
  }
  let running = 0;
  let stopped = false;
  let finished = false;

  return new Promise((resolve) => {
    /**
     * Settles every task that can no longer run because `failed` did not succeed: its dependants,
     * theirs, and so on. Each names as `blockedBy` its first dependency (in its own order) that had
     * not succeeded when it was settled, going through them in plan order until all are settled.
     */
    const block = (failed: number): void => {
      const affected = new Set<number>();
      const stack = [failed];
      while (stack.length > 0) {
        for (const d of dependants[stack.pop() as number] as number[]) {
          if (affected.has(d) || outcomes.has((tasks[d] as T).id)) continue;
          affected.add(d);
          stack.push(d);
        }
      }
      let left = [...affected].sort((a, b) => a - b);
      while (left.length > 0) {
        const still: number[] = [];
        for (const i of left) {
          const task = tasks[i] as T;
          const by = task.dependsOn.find((d) => {
            const o = outcomes.get(d);
            return o !== undefined && o.status !== 'done';
          });
          if (by === undefined) still.push(i);
          else outcomes.set(task.id, { status: 'not-attempted', blockedBy: by });
        }
        left = still;
      }
    };

    const pump = (): void => {
      if (finished) return;
      if (options.signal?.aborted) stopped = true;
      while (!stopped && running < options.parallelism && ready.size > 0) {
        const i = ready.pop();
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
        for (const d of dependants[i] as number[]) {
          const left = (waiting[d] as number) - 1;
          waiting[d] = left;
          if (left === 0) ready.push(d);
        }
      } else {
        if (!options.continueOnError) stopped = true;
        block(i);
      }
      pump();
    };

    options.signal?.addEventListener('abort', pump, { once: true });
    pump();
  });
}
