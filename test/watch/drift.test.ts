import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, type TestContext } from 'vitest';
import { samplesOf } from './prometheus.js';
import {
  policyFile,
  startReady,
  startWatch,
  waitFor,
  type LogEntry,
  type WatchedDaemon,
} from './daemon-harness.js';

const driftEvents = (d: WatchedDaemon): LogEntry[] => d.logs.filter((e) => e.drift !== undefined);

describe('watch reports drift field by field', { timeout: 60_000 }, () => {
  it('logs one event naming the field, the old and the new value when a hand change is reverted', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') }, interval: '1s' });
    // Applying the config at start is not drift: the account had never equalled it.
    expect(driftEvents(d)).toEqual([]);
    const [policy] = await d.policies();
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'changed by hand' });
    const event = await waitFor('the drift event', () => driftEvents(d)[0], 10_000);
    expect(event).toMatchObject({
      level: 'warn',
      msg: 'drift: ip_policies/p0 differs from the config; reverted',
      drift: {
        kind: 'ip_policies',
        key: 'ip_policies/p0',
        action: 'update',
        changes: [{ field: 'description', old: 'changed by hand', new: 'one' }],
        reverted: true,
      },
    });
    expect((await d.policies()).map((p) => p.description)).toEqual(['one']);
    // The reverting reconcile settles; the next resyncs find nothing more.
    await waitFor('two more reconciles', () => d.reconciles().length >= 4, 10_000);
    expect(driftEvents(d)).toHaveLength(1);

    const body = await d.status();
    expect(body).toMatchObject({
      mode: 'reconcile',
      ready: true,
      lastReconcile: { status: 'success' },
      lastDrift: {
        reconcile: event.reconcile,
        objects: [
          { key: 'ip_policies/p0', changes: [{ field: 'description', old: 'changed by hand', new: 'one' }] },
        ],
      },
    });
    expect(body.lastError).toBeUndefined();
  });

  it('in observe mode changes nothing over several triggers and reports the same drift each time', async (context) => {
    const d = await startWatch({
      files: { 'policies.yaml': policyFile('one') },
      interval: '1s',
      args: ['--mode', 'observe'],
    });
    context.onTestFinished(() => d.close());
    const { body: created } = await d.api.post<{ id: string }>('/ip_policies', { description: 'by hand' });
    // A change trigger too: a config edit is observed like an interval.
    await waitFor('the start reconcile', () => d.reconciles().length >= 1, 20_000);
    await d.writeConfig('policies.yaml', policyFile('one'));
    await waitFor('three more reconciles', () => d.reconciles().length >= 4, 15_000);

    expect(d.requests('POST')).toBe(1);
    expect(d.requests('PATCH')).toBe(0);
    expect(d.requests('PUT')).toBe(0);
    expect(d.requests('DELETE')).toBe(0);
    expect((await d.policies()).map((p) => [p.id, p.description])).toEqual([[created.id, 'by hand']]);
    const events = d.reconciles().map((r) => driftEvents(d).filter((e) => e.reconcile === r.reconcile));
    for (const perReconcile of events) {
      expect(perReconcile.map((e) => e.drift)).toEqual([
        {
          kind: 'ip_policies',
          key: 'ip_policies/p0',
          action: 'create',
          changes: [{ field: 'description', new: 'one' }],
          reverted: false,
        },
      ]);
      expect(perReconcile[0]?.msg).toBe(
        'drift: ip_policies/p0 differs from the config; observing, not reverted',
      );
    }
    expect(d.reconciles().every((r) => r.status === 'success')).toBe(true);
    const exposition = await d.metrics();
    expect(samplesOf(exposition, 'acctsync_ready')[0]?.value).toBe(1);
    expect(
      samplesOf(exposition, 'acctsync_drifted_objects').find((m) => m.labels.kind === 'ip_policies')?.value,
    ).toBe(1);
    expect(samplesOf(exposition, 'acctsync_build_info')[0]?.labels.mode).toBe('observe');
    expect(samplesOf(exposition, 'acctsync_operations_applied_total')).toEqual([]);
    expect(await d.status()).toMatchObject({
      mode: 'observe',
      ready: true,
      lastDrift: { objects: [{ key: 'ip_policies/p0' }] },
    });
  });

  it('is not ready until a reconcile against the API succeeded, and /status keeps the error', async (context) => {
    const d = await startWatch({
      files: { 'policies.yaml': policyFile('one') },
      interval: '2s',
      faults: { error500: 1 },
    });
    context.onTestFinished(() => d.close());
    const failed = await waitFor(
      'the failed first reconcile',
      () => d.reconciles().find((r) => r.status === 'failed'),
      20_000,
    );
    const notReady = await d.readyz();
    expect(notReady.status).toBe(503);
    expect(notReady.body).toMatchObject({ ready: false, lastReconcile: { status: 'failed' } });
    d.emulator.setFaults({});
    await waitFor('readiness after the API recovered', async () => (await d.readyz()).status === 200, 20_000);
    expect((await d.policies()).map((p) => p.description)).toEqual(['one']);
    expect(await d.status()).toMatchObject({
      ready: true,
      lastError: { reconcile: failed.reconcile, status: 'failed', reason: expect.any(String) as string },
    });
  });
});

/** A webhook receiver answering 200, keeping each body. */
async function startReceiver(
  context: TestContext,
): Promise<{ url: string; bodies: Record<string, unknown>[] }> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body) as Record<string, unknown>);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  context.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, bodies };
}

describe('watch tells drift from the config change (cause)', { timeout: 60_000 }, () => {
  it('reports a hand edit made beside a config edit as drift, and one on an object the config also changed as both', async (context) => {
    const receiver = await startReceiver(context);
    // No interval reconcile in between: each step is one reconcile, triggered by the config edit.
    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one', 'two') },
      interval: '1h',
      args: ['--notify', receiver.url],
    });
    const idOf = async (description: string) =>
      (await d.policies()).find((p) => p.description === description)?.id ?? '';

    await d.api.patch(`/ip_policies/${await idOf('one')}`, { description: 'one, by hand' });
    await d.writeConfig('policies.yaml', policyFile('one', 'two, reviewed'));
    const first = await waitFor('the drift event', () => driftEvents(d)[0], 20_000);
    expect(first.drift).toEqual({
      kind: 'ip_policies',
      key: 'ip_policies/p0',
      action: 'update',
      changes: [{ field: 'description', old: 'one, by hand', new: 'one' }],
      reverted: true,
      cause: 'drift',
    });
    const notified = await waitFor('the drift notification', () =>
      receiver.bodies.find((b) => b.event === 'drift_reverted'),
    );
    expect(notified.objects).toEqual([first.drift]);
    // The config's own change is applied, not reported as drift.
    expect(driftEvents(d).map((e) => (e.drift as { key: string }).key)).toEqual(['ip_policies/p0']);
    expect((await d.policies()).map((p) => p.description).sort()).toEqual(['one', 'two, reviewed']);

    await d.api.patch(`/ip_policies/${await idOf('one')}`, { description: 'one, by hand again' });
    await d.writeConfig('policies.yaml', policyFile('one, reviewed', 'two, reviewed'));
    const second = await waitFor('the second drift event', () => driftEvents(d)[1], 20_000);
    expect(second.drift).toMatchObject({
      key: 'ip_policies/p0',
      changes: [{ field: 'description', old: 'one, by hand again', new: 'one, reviewed' }],
      reverted: true,
      cause: 'both',
    });
  });
});

describe('watch removes items added by hand to a managed nested collection', { timeout: 60_000 }, () => {
  it('deletes a 0.0.0.0/0 rule added to a managed IP policy and reports it as drift', async (context) => {
    const file = [
      'version: 1',
      'scope: watch-test',
      'ip_policies:',
      '  office:',
      '    description: office',
      '    rules:',
      '      - { cidr: 10.0.0.0/8, action: allow }',
      '',
    ].join('\n');
    const d = await startReady(context, { files: { 'policies.yaml': file }, interval: '1s' });
    const [policy] = await d.policies();
    await d.api.post('/ip_policy_rules', { ip_policy_id: policy?.id, cidr: '0.0.0.0/0', action: 'allow' });
    const event = await waitFor('the drift event', () => driftEvents(d)[0], 20_000);
    expect(event.drift).toEqual({
      kind: 'ip_policies',
      key: 'ip_policies/office/rules/0.0.0.0/0',
      action: 'delete',
      changes: [],
      reverted: true,
      cause: 'drift',
    });
    const rules = await d.api.listAll<{ cidr: string }>('/ip_policy_rules', 'ip_policy_rules');
    expect(rules.map((r) => r.cidr)).toEqual(['10.0.0.0/8']);
  });
});
