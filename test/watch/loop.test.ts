import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ReconcileLoop, type ReconcileRecord } from '../../src/watch/loop.js';
import type { ReconcileContext, ReconcileResult, Trigger } from '../../src/watch/types.js';
import { captureLog } from './log-capture.js';

const ok: ReconcileResult = { status: 'success', planned: 0, applied: [] };
const broken: ReconcileResult = { status: 'invalid_config', planned: 0, applied: [], reason: 'a.yaml: bad' };

/** A reconcile step whose runs the test releases one by one. */
function controlledStep(results: (trigger: Trigger, n: number) => ReconcileResult = () => ok) {
  const calls: ReconcileContext[] = [];
  const pending: (() => void)[] = [];
  const step = async (ctx: ReconcileContext): Promise<ReconcileResult> => {
    calls.push(ctx);
    const n = calls.length;
    await new Promise<void>((resolve) => pending.push(resolve));
    return results(ctx.trigger, n);
  };
  const release = async (): Promise<void> => {
    pending.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { step, calls, release, triggers: () => calls.map((c) => c.trigger) };
}

function newLoop(step: ReturnType<typeof controlledStep>['step'], records: ReconcileRecord[] = []) {
  const captured = captureLog();
  const loop = new ReconcileLoop({
    reconcile: step,
    log: captured.log,
    intervalMs: 60_000,
    jitter: 0.1,
    backoff: { baseMs: 1000, maxMs: 8000 },
    onSettled: (r) => records.push(r),
    random: () => 0.5,
  });
  return { loop, captured, records };
}

describe('ReconcileLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reconciles at start, then on the interval', async () => {
    const s = controlledStep();
    const { loop } = newLoop(s.step);
    loop.start();
    await s.release();
    expect(s.triggers()).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(s.triggers()).toEqual(['start']);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.triggers()).toEqual(['start', 'interval']);
    await s.release();
    await loop.stop();
  });

  it('runs one reconcile at a time; requests during one collapse into exactly one more, a change winning', async () => {
    const s = controlledStep();
    const { loop } = newLoop(s.step);
    loop.start();
    loop.request('change');
    loop.request('interval');
    loop.request('change');
    expect(s.calls).toHaveLength(1);
    await s.release();
    expect(s.triggers()).toEqual(['start', 'change']);
    await s.release();
    expect(s.calls).toHaveLength(2);
    await loop.stop();
  });

  it('a change during the wait for the interval runs at once and restarts the interval', async () => {
    const s = controlledStep();
    const { loop } = newLoop(s.step);
    loop.start();
    await s.release();
    await vi.advanceTimersByTimeAsync(30_000);
    loop.request('change');
    await s.release();
    await vi.advanceTimersByTimeAsync(59_999);
    expect(s.triggers()).toEqual(['start', 'change']);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.triggers()).toEqual(['start', 'change', 'interval']);
    await s.release();
    await loop.stop();
  });

  it('backs off exponentially on repeated failures, capped, then logs the recovery', async () => {
    const s = controlledStep((_t, n) => (n <= 5 ? broken : ok));
    const { loop, captured, records } = newLoop(s.step);
    loop.start();
    await s.release();
    // random() = 0.5 gives 3/4 of the nominal delay: 1000, 2000, 4000, 8000 (capped) → 750, 1500, 3000, 6000, 6000.
    for (const delay of [750, 1500, 3000, 6000]) {
      const before = s.calls.length;
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(s.calls).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(s.calls).toHaveLength(before + 1);
      await s.release();
    }
    expect(s.triggers()).toEqual(['start', 'retry', 'retry', 'retry', 'retry']);
    await vi.advanceTimersByTimeAsync(6000);
    await s.release();
    expect(records.map((r) => r.failures)).toEqual([1, 2, 3, 4, 5, 0]);
    const recovered = captured.entries().find((e) => e.msg === 'reconcile recovered');
    expect(recovered).toMatchObject({ failures: 5, status: 'success' });
    await loop.stop();
  });

  it('flags drift when the step found drifted objects, not when it applied config changes', async () => {
    const event = { kind: 'ip_policies', key: 'p0', action: 'update', changes: [], reverted: true } as const;
    const s = controlledStep((trigger) => ({
      status: 'success',
      planned: trigger === 'start' ? 3 : 1,
      applied: [],
      drift: trigger === 'start' ? [] : [event],
    }));
    const { loop, records } = newLoop(s.step);
    loop.start();
    await s.release();
    await vi.advanceTimersByTimeAsync(60_000);
    await s.release();
    expect(records.map((r) => [r.trigger, r.drift])).toEqual([
      ['start', false],
      ['interval', true],
    ]);
    await loop.stop();
  });

  it('turns a throwing step into a failed reconcile and keeps going', async () => {
    const captured = captureLog();
    const records: ReconcileRecord[] = [];
    let n = 0;
    const loop = new ReconcileLoop({
      reconcile: () => (++n === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(ok)),
      log: captured.log,
      intervalMs: 60_000,
      backoff: { baseMs: 1000, maxMs: 8000 },
      onSettled: (r) => records.push(r),
      random: () => 0,
    });
    loop.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(records.map((r) => r.result.status)).toEqual(['failed', 'success']);
    expect(records[0]?.result.reason).toBe('boom');
    await loop.stop();
  });

  it('stop() signals the running reconcile, waits for it and schedules nothing more', async () => {
    const s = controlledStep();
    const { loop } = newLoop(s.step);
    loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(s.calls[0]?.signal.aborted).toBe(true);
    expect(stopped).toBe(false);
    loop.request('change');
    await s.release();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(s.calls).toHaveLength(1);
  });

  it('tags every line of a reconcile with its id', async () => {
    const s = controlledStep();
    const { loop, captured } = newLoop(s.step);
    loop.start();
    await s.release();
    await loop.stop();
    const ids = captured.entries().filter((e) => String(e.msg).startsWith('reconcile'));
    expect(ids.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ids.map((e) => e.reconcile)).size).toBe(1);
    expect(ids[0]?.reconcile).toMatch(/^[0-9a-f]{8}$/);
  });

  it('shows the running reconcile and the next one, and counts a stop as no failure', async () => {
    const stopped: ReconcileResult = {
      status: 'stopped',
      planned: 2,
      applied: [],
      reason: 'the daemon stopped',
    };
    const s = controlledStep((_trigger, n) => (n === 1 ? broken : stopped));
    const { loop, captured, records } = newLoop(s.step);
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(loop.running).toMatchObject({ trigger: 'start', done: 0, failed: 0 });
    expect(loop.nextRun).toBeUndefined();
    s.calls[0]?.progress.operationFinished({
      kind: 'ip_policies',
      key: 'ip_policies/p0',
      action: 'create',
      outcome: 'succeeded',
    });
    expect(loop.running?.done).toBe(1);
    await s.release();
    expect(loop.running).toBeUndefined();
    expect(loop.nextRun?.trigger).toBe('retry');
    loop.request('change');
    await s.release();
    expect(records.map((r) => [r.result.status, r.failures])).toEqual([
      ['invalid_config', 1],
      ['stopped', 1],
    ]);
    expect(captured.entries().find((e) => e.status === 'stopped')).toMatchObject({
      level: 'warn',
      msg: 'reconcile stopped: the daemon is stopping',
    });
    await loop.stop();
  });
});
