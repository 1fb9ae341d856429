/**
 * What the operator of a running daemon sees, checked through the built CLI against the emulator:
 * webhooks that hang, failed operations and progress in /status and /metrics while an apply runs,
 * a SIGTERM mid-apply that is a stop and not an incident, and an API outage that does not flood
 * the log.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, type TestContext } from 'vitest';
import { samplesOf, type Exposition } from './prometheus.js';
import { policyFile, startReady, startWatch, waitFor, type LogEntry } from './daemon-harness.js';

interface Webhook {
  readonly url: string;
  readonly events: string[];
}

/** A webhook that answers 200, or (`hang`) accepts every POST and never answers. */
async function webhook(context: TestContext, hang = false): Promise<Webhook> {
  const events: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push((JSON.parse(body) as { event: string }).event);
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  context.onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, events };
}

/** The sum of a metric's samples whose labels include `labels`. */
function total(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return samplesOf(exposition, name)
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

const descriptions = (count: number, prefix = 'p'): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`);

describe('what the operator of a running daemon sees', { timeout: 90_000 }, () => {
  it('a hung webhook is logged and counted while the healthy one gets every event', async (context) => {
    const hung = await webhook(context, true);
    const healthy = await webhook(context);
    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one') },
      interval: '1s',
      args: ['--notify', hung.url, '--notify', healthy.url],
    });
    await d.writeConfig('policies.yaml', 'version: 1\nip_policies:\n  p0: [unclosed\n');
    await waitFor('config_invalid at the healthy webhook', () => healthy.events.includes('config_invalid'));
    await d.writeConfig('policies.yaml', policyFile('one'));
    await waitFor('recovered at the healthy webhook', () => healthy.events.includes('recovered'), 20_000);
    expect(healthy.events).toEqual(['config_invalid', 'recovered']);

    // The hung webhook's POST is cut at the 5 s timeout, logged at once and counted.
    const failure = await waitFor(
      'the hung webhook to be logged',
      () => d.logs.find((e) => e.urlIndex === 0 && String(e.msg).startsWith('notification attempt failed')),
      30_000,
    );
    expect(failure).toMatchObject({
      level: 'warn',
      notification: 'config_invalid',
      cause: 'no answer within 5000 ms',
    });
    expect(JSON.stringify(failure)).not.toContain('/hook');
    const exposition = await d.metrics();
    expect(
      total(exposition, 'acctsync_notification_attempt_failures_total', {
        url_index: '0',
        reason: 'timeout',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(total(exposition, 'acctsync_notifications_total', { url_index: '1', result: 'delivered' })).toBe(
      2,
    );
    expect(d.child.exitCode).toBeNull();
  });

  it('shows an apply in progress in /status and /metrics, and counts the operation that failed', async (context) => {
    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one') },
      args: ['--parallelism', '1'],
    });
    d.emulator.setFaults({ latencyMs: 250 });
    await d.writeConfig('policies.yaml', policyFile(...descriptions(30)));

    const running = await waitFor('an operation done with more to go in /status', async () => {
      const r = (await d.status()).running as { planned?: number; done: number } | undefined;
      return r !== undefined && r.planned === 30 && r.done >= 1 && r.done < 20 ? r : undefined;
    });
    expect(running).toMatchObject({ trigger: 'change', failed: 0, startedAt: expect.any(String) as string });
    const midApply = await waitFor('operations counted while the reconcile runs', async () => {
      const e = await d.metrics();
      return total(e, 'acctsync_reconcile_in_progress') === 1 &&
        total(e, 'acctsync_operations_total', { outcome: 'succeeded', action: 'create' }) >= 1
        ? e
        : undefined;
    });
    expect(total(midApply, 'acctsync_reconciles_total', { result: 'success' })).toBe(1);

    // Writes start failing: the next operation fails, the rest are not attempted.
    d.emulator.setFaults({ latencyMs: 250, error500: 1 });
    const result = await waitFor('the change reconcile to end', () =>
      d.reconciles().find((e) => e.trigger === 'change'),
    );
    expect(result).toMatchObject({ level: 'error', status: 'failed' });
    // The retries that follow fail too (the faults stay): counts only grow from here.
    const after = await d.metrics();
    expect(total(after, 'acctsync_operations_total', { outcome: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'acctsync_operations_total', { outcome: 'not_attempted' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'acctsync_reconciles_total', { result: 'failed' })).toBeGreaterThanOrEqual(1);
    expect(total(after, 'acctsync_last_attempt_timestamp_seconds')).toBeGreaterThan(
      total(after, 'acctsync_last_success_timestamp_seconds'),
    );
    expect(
      total(after, 'acctsync_reconcile_duration_seconds_count', { trigger: 'change', result: 'failed' }),
    ).toBe(1);

    const body = await waitFor('/status between reconciles', async () => {
      const s = await d.status();
      return s.nextRun === undefined ? undefined : s;
    });
    expect(body).toMatchObject({
      api: new URL(d.emulator.url).origin,
      config: { revision: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as string, managedObjects: 30 },
      nextRun: { trigger: 'retry', at: expect.any(String) as string },
      lastError: { status: 'failed' },
    });
    expect(body.running).toBeUndefined();
  });

  it('SIGTERM mid-apply past the grace exits 0 and reports a stop: no failure notification, no error line', async (context) => {
    const hook = await webhook(context);
    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one') },
      args: ['--shutdown-grace', '300ms', '--parallelism', '2', '--notify', hook.url],
    });
    d.emulator.setFaults({ latencyMs: 3000 });
    await d.writeConfig('policies.yaml', policyFile(...descriptions(6)));
    const change = await waitFor('the change reconcile', () =>
      d.logs.find((e) => e.msg === 'reconcile started' && e.trigger === 'change'),
    );
    // Its plan's reads take 3 s each; its first writes are sent as soon as the plan is logged.
    await waitFor(
      'the apply to start',
      () => d.logs.some((e) => e.msg === 'plan has changes' && e.reconcile === change.reconcile),
      20_000,
    );
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);

    const mine = d.logs.filter((e) => e.reconcile === change.reconcile);
    expect(mine.filter((e) => e.msg?.includes('stopped by the shutdown'))).not.toHaveLength(0);
    expect(mine.at(-1)).toMatchObject({
      level: 'warn',
      status: 'stopped',
      msg: 'reconcile stopped: the daemon is stopping',
    });
    expect(d.logs.filter((e) => e.level === 'error' || e.level === 'fatal')).toEqual([]);
    expect(hook.events).toEqual([]);
  });

  it('SIGTERM while planning is a stop too', async (context) => {
    const hook = await webhook(context);
    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one') },
      args: ['--notify', hook.url],
    });
    d.emulator.setFaults({ latencyMs: 5000 });
    await d.writeConfig('policies.yaml', policyFile('two'));
    const change = await waitFor('the change reconcile', () =>
      d.logs.find((e) => e.msg === 'reconcile started' && e.trigger === 'change'),
    );
    d.child.kill('SIGTERM');
    expect(await d.exited).toBe(0);
    expect(d.reconciles().find((e) => e.reconcile === change.reconcile)).toMatchObject({
      level: 'warn',
      status: 'stopped',
      reason: 'the daemon stopped while planning; nothing was applied',
    });
    expect(d.logs.filter((e) => e.level === 'error' || e.level === 'fatal')).toEqual([]);
    expect(hook.events).toEqual([]);
  });

  it('during an outage, retries are logged under their reconcile, summarised once, and stop when it has failed', async (context) => {
    const d = await startWatch({ files: { 'policies.yaml': policyFile('one') } });
    context.onTestFinished(() => d.close());
    // The outage starts once the daemon holds its scope's lease, so it is the plan that fails.
    await waitFor('the first reconcile', () => d.reconciles().length >= 1, 60_000);
    d.emulator.setFaults({ error500: 1 });
    await d.writeConfig('policies.yaml', policyFile('two'));
    // Two failed reconciles: the change and its first retry.
    await waitFor('two failed reconciles', () => d.reconciles().length >= 3, 60_000);
    const retries = (): LogEntry[] => d.logs.filter((e) => String(e.msg).startsWith('retrying '));
    expect(retries().length).toBeGreaterThan(0);
    for (const line of retries())
      expect(line).toMatchObject({
        level: 'debug',
        reconcile: expect.stringMatching(/^[0-9a-f]{8}$/) as string,
      });

    const [, first] = d.reconciles();
    const id = first?.reconcile;
    expect(first).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^planning failed/) as string,
    });
    // Nothing of the failed reconcile retries after its end.
    const end = d.logs.indexOf(first as LogEntry);
    expect(
      d.logs.slice(end + 1).filter((e) => e.reconcile === id && String(e.msg).startsWith('retrying')),
    ).toEqual([]);
    const summaries = d.logs.filter(
      (e) => e.reconcile === id && String(e.msg).endsWith('retries during this reconcile'),
    );
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({
      level: 'info',
      retries: retries().filter((e) => e.reconcile === id).length,
      byReason: { server_error: expect.any(Number) as number },
    });
    // Lines at info and above: a handful per reconcile, however many requests it had.
    const loud = d.logs.filter((e) => e.reconcile === id && e.level !== 'debug');
    expect(loud.length).toBeLessThan(6);
  });
});
