/**
 * The scheduler's rules, independent of the API: dependants start only after all their dependencies
 * succeeded, ready tasks start in plan order, a failure stops the run unless continue-on-error (then
 * only its dependants are skipped, naming what blocked them), and a broken graph runs nothing.
 */
import { describe, expect, it } from 'vitest';
import { checkGraph, runSchedule, type Task, type TaskOutcome } from '../../src/apply/schedule.js';

const t = (id: string, ...dependsOn: string[]): Task => ({ id, dependsOn });

/** Runs the schedule with tasks that succeed (or fail, for ids in `failing`) on the next tick. */
async function simulate(
  tasks: readonly Task[],
  options: { parallelism: number; continueOnError?: boolean; failing?: readonly string[] },
): Promise<{ started: string[]; maxRunning: number; outcomes: Map<string, TaskOutcome> }> {
  const started: string[] = [];
  const done = new Set<string>();
  let running = 0;
  let maxRunning = 0;
  const outcomes = await runSchedule(
    tasks,
    { parallelism: options.parallelism, continueOnError: options.continueOnError ?? false },
    async (task) => {
      // Every dependency finished, and succeeded, before this one starts.
      for (const d of task.dependsOn) expect(done.has(d), `${task.id} started before ${d}`).toBe(true);
      started.push(task.id);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setImmediate(r));
      running--;
      if (options.failing?.includes(task.id)) throw new Error(`${task.id} failed`);
      done.add(task.id);
    },
  );
  return { started, maxRunning, outcomes };
}

const statuses = (outcomes: Map<string, TaskOutcome>): Record<string, string> =>
  Object.fromEntries(
    [...outcomes].map(([id, o]) => [
      id,
      o.status === 'not-attempted' && o.blockedBy !== undefined ? `${o.status} <- ${o.blockedBy}` : o.status,
    ]),
  );

describe('runSchedule', () => {
  it('starts ready tasks in plan order, a dependant once its dependencies are done', async () => {
    const tasks = [t('a'), t('b', 'c'), t('c'), t('d'), t('e', 'b', 'd')];
    const { started, outcomes } = await simulate(tasks, { parallelism: 1 });
    // After c, b (earlier in the plan) goes before d.
    expect(started).toEqual(['a', 'c', 'b', 'd', 'e']);
    expect(statuses(outcomes)).toEqual({ a: 'done', b: 'done', c: 'done', d: 'done', e: 'done' });
  });

  it('fills a free slot with the earliest ready task in plan order, not the longest ready', async () => {
    // z is ready from the start, but y1 (ready when x0 finishes) and y0 (when x1 does) come first in the plan.
    const tasks = [t('x0'), t('x1'), t('y0', 'x1'), t('y1', 'x0'), t('z')];
    const { started } = await simulate(tasks, { parallelism: 2 });
    expect(started).toEqual(['x0', 'x1', 'y1', 'y0', 'z']);
  });

  it('never runs more than the parallelism at once, and uses it', async () => {
    const tasks = Array.from({ length: 20 }, (_, i) => t(`t${i}`));
    expect((await simulate(tasks, { parallelism: 3 })).maxRunning).toBe(3);
    expect((await simulate(tasks, { parallelism: 1 })).maxRunning).toBe(1);
  });

  it('waits for every dependency of a diamond, and dependencies listed twice', async () => {
    const tasks = [t('a'), t('b', 'a'), t('c', 'a'), t('d', 'c', 'b', 'c')];
    const { started, outcomes } = await simulate(tasks, { parallelism: 4 });
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.get('d')).toEqual({ status: 'done' });
  });

  it('stops starting tasks after the first failure; the rest are not attempted', async () => {
    const tasks = [t('a'), t('b'), t('c', 'a'), t('d', 'c')];
    const { started, outcomes } = await simulate(tasks, { parallelism: 1, failing: ['a'] });
    expect(started).toEqual(['a']);
    expect(statuses(outcomes)).toEqual({
      a: 'failed',
      b: 'not-attempted',
      c: 'not-attempted <- a',
      d: 'not-attempted <- c',
    });
    const failed = outcomes.get('a');
    expect(failed?.status === 'failed' && (failed.error as Error).message).toBe('a failed');
  });

  it('lets tasks already running finish after a failure', async () => {
    const tasks = [t('a'), t('b'), t('c')];
    const { started, outcomes } = await simulate(tasks, { parallelism: 2, failing: ['a'] });
    expect(started).toEqual(['a', 'b']);
    expect(statuses(outcomes)).toEqual({ a: 'failed', b: 'done', c: 'not-attempted' });
  });

  it('with continue-on-error, skips only what depends on the failure, directly or not', async () => {
    const tasks = [t('a'), t('b', 'a'), t('c', 'b'), t('d'), t('e', 'd', 'c'), t('f', 'd')];
    const { started, outcomes } = await simulate(tasks, {
      parallelism: 1,
      continueOnError: true,
      failing: ['a'],
    });
    expect(started).toEqual(['a', 'd', 'f']);
    expect(statuses(outcomes)).toEqual({
      a: 'failed',
      b: 'not-attempted <- a',
      c: 'not-attempted <- b',
      d: 'done',
      e: 'not-attempted <- c',
      f: 'done',
    });
  });

  it('stops starting tasks once the signal aborts', async () => {
    const abort = new AbortController();
    const started: string[] = [];
    const outcomes = await runSchedule(
      [t('a'), t('b'), t('c', 'a')],
      { parallelism: 1, continueOnError: false, signal: abort.signal },
      async (task) => {
        started.push(task.id);
        abort.abort();
        await Promise.resolve();
      },
    );
    expect(started).toEqual(['a']);
    expect(statuses(outcomes)).toEqual({ a: 'done', b: 'not-attempted', c: 'not-attempted' });
  });

  it('resolves at once for an empty graph', async () => {
    expect((await simulate([], { parallelism: 2 })).outcomes.size).toBe(0);
  });

  it('runs a long chain', async () => {
    const tasks = Array.from({ length: 20_000 }, (_, i) => (i === 0 ? t('0') : t(`${i}`, `${i - 1}`)));
    const outcomes = await runSchedule(tasks, { parallelism: 8, continueOnError: false }, async () => {});
    expect([...outcomes.values()].every((o) => o.status === 'done')).toBe(true);
    expect(outcomes.size).toBe(20_000);
  });

  it('rejects a broken graph before running anything', async () => {
    let ran = 0;
    const run = (): Promise<void> => {
      ran++;
      return Promise.resolve();
    };
    const options = { parallelism: 2, continueOnError: false };
    await expect(runSchedule([t('x'), t('a', 'b'), t('b', 'c'), t('c', 'a')], options, run)).rejects.toThrow(
      'the plan has a dependency cycle: a -> b -> c -> a',
    );
    await expect(runSchedule([t('a', 'a')], options, run)).rejects.toThrow(
      'the plan has a dependency cycle: a -> a',
    );
    await expect(runSchedule([t('a', 'zz')], options, run)).rejects.toThrow(
      "operation 'a' depends on unknown operation 'zz'",
    );
    await expect(runSchedule([t('a'), t('a')], options, run)).rejects.toThrow(
      'the plan has two operations with the same id',
    );
    expect(ran).toBe(0);
  });
});

describe('checkGraph', () => {
  it('names the cycle itself, not the path that led into it', () => {
    expect(() => checkGraph([t('r', 'a'), t('a', 'b'), t('b', 'a')])).toThrow(
      /^the plan has a dependency cycle: a -> b -> a$/,
    );
  });

  it('accepts a deep chain without running out of stack', () => {
    const tasks = Array.from({ length: 50_000 }, (_, i) => t(`${i}`, ...(i > 0 ? [`${i - 1}`] : [])));
    expect(() => checkGraph(tasks.reverse())).not.toThrow();
  });
});
