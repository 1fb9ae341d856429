/**
 * Deliveries to webhooks: a timeout that holds every time (on every Node line CI runs), state
 * changes ahead of drift reports, a bounded queue, and drift reports grouped per object.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../src/resources/index.js';
import type { DriftEvent } from '../../src/watch/drift.js';
import type { ReconcileRecord } from '../../src/watch/loop.js';
import { WatchMetrics } from '../../src/watch/metrics.js';
import { Notifier } from '../../src/watch/notify.js';
import type { ReconcileResult } from '../../src/watch/types.js';
import { waitFor } from './daemon-harness.js';
import { captureLog } from './log-capture.js';
import { parseExposition, samplesOf } from './prometheus.js';

let sequence = 0;
function record(result: ReconcileResult): ReconcileRecord {
  sequence++;
  return {
    id: `r${sequence}`,
    trigger: 'interval',
    result,
    startedAt: new Date(),
    durationMs: 5,
    failures: 1,
    drift: (result.drift?.length ?? 0) > 0,
    apiRequests: 20,
  };
}

const failed = (status: 'failed' | 'invalid_config'): ReconcileRecord =>
  record({ status, planned: 0, applied: [], reason: `${status} on purpose` });

const reverted = (key: string): ReconcileRecord =>
  record({
    status: 'success',
    planned: 1,
    applied: [],
    drift: [
      {
        kind: 'ip_policies',
        key,
        action: 'update',
        changes: [{ field: 'description', old: 'by hand', new: 'x' }],
        reverted: true,
      } satisfies DriftEvent,
    ],
  });

interface Receiver {
  readonly url: string;
  /** Bodies received, parsed, in order. */
  readonly received: { event: string; objects?: { key: string }[] }[];
}

describe('notification delivery', { timeout: 60_000 }, () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });

  /** A webhook; `answer` says the status for a body, `undefined` to never answer. */
  async function receiver(answer: (event: string) => number | undefined): Promise<Receiver> {
    const received: Receiver['received'] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as Receiver['received'][number];
        received.push(parsed);
        const status = answer(parsed.event);
        if (status !== undefined) res.writeHead(status).end();
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
  }

  it('cuts every POST to a webhook that never answers at the timeout, many in a row, and logs and counts each', async () => {
    const hung = await receiver(() => undefined);
    const healthy = await receiver(() => 200);
    const { log, entries } = captureLog();
    const metrics = new WatchMetrics(builtinKinds);
    const notifier = new Notifier({
      urls: [hung.url, healthy.url],
      mode: 'reconcile',
      log,
      timeoutMs: 150,
      attempts: 1,
      observer: metrics.notifications(2),
    });
    // Alternating statuses: each one is a change of state, so each is sent.
    const count = 12;
    for (let i = 0; i < count; i++) notifier.record(failed(i % 2 === 0 ? 'failed' : 'invalid_config'));

    // The healthy URL does not wait for the hung one.
    await waitFor('the healthy webhook to get every event', () => healthy.received.length === count);
    // A timeout that fired only the first time would hold the second POST for ever.
    const given = (): Record<string, unknown>[] =>
      entries().filter((e) => e.msg === 'notification not delivered' && e.urlIndex === 0);
    await waitFor('every POST to the hung webhook to be given up', () => given().length === count, 30_000);
    expect(hung.received).toHaveLength(count);
    expect(given()[0]).toMatchObject({ level: 'warn', cause: 'no answer within 150 ms', attempt: 1 });
    const exposition = parseExposition((await metrics.render()).text);
    const value = (name: string, labels: Record<string, string>): number | undefined =>
      samplesOf(exposition, name).find((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        ?.value;
    expect(value('acctsync_notification_attempt_failures_total', { url_index: '0', reason: 'timeout' })).toBe(
      count,
    );
    expect(value('acctsync_notifications_total', { url_index: '0', result: 'given_up' })).toBe(count);
    expect(value('acctsync_notifications_total', { url_index: '1', result: 'delivered' })).toBe(count);
    await notifier.close();
  });

  it('sends a failure before a backlog of drift reports, which fold into one', async () => {
    // Drift reports fail until a failure has been delivered; then the webhook takes them.
    let failureSeen = false;
    const hook = await receiver((event) => {
      if (event === 'apply_failed') failureSeen = true;
      return event === 'apply_failed' || failureSeen ? 200 : 503;
    });
    const notifier = new Notifier({
      urls: [hook.url],
      mode: 'reconcile',
      log: captureLog().log,
      backoff: { baseMs: 200, maxMs: 200 },
    });
    notifier.record(reverted('ip_policies/a'));
    await waitFor('the first drift report to be refused', () => hook.received.length === 1);
    notifier.record(reverted('ip_policies/b'));
    notifier.record(reverted('ip_policies/c'));
    notifier.record(failed('failed'));
    await notifier.close();

    expect(hook.received.map((r) => r.event)).toEqual(['drift_reverted', 'apply_failed', 'drift_reverted']);
    expect(hook.received[2]?.objects?.map((o) => o.key)).toEqual([
      'ip_policies/a',
      'ip_policies/b',
      'ip_policies/c',
    ]);
  });

  it('drops drift reports before state changes when the queue is full', async () => {
    const hung = await receiver(() => undefined);
    const { log, entries } = captureLog();
    const notifier = new Notifier({
      urls: [hung.url],
      mode: 'reconcile',
      log,
      timeoutMs: 300,
      attempts: 1,
      queueCapacity: 2,
    });
    notifier.record(failed('failed'));
    await waitFor('the first failure to be in flight', () => hung.received.length === 1);
    notifier.record(reverted('ip_policies/a'));
    notifier.record(failed('invalid_config'));
    notifier.record(failed('failed'));
    await notifier.close();

    expect(hung.received.map((r) => r.event)).toEqual(['apply_failed', 'config_invalid', 'apply_failed']);
    expect(entries().find((e) => String(e.msg).startsWith('notification dropped'))).toMatchObject({
      level: 'warn',
      notification: 'drift_reverted',
    });
  });

  it('reports an object reverted again within the drift window once', async () => {
    const hook = await receiver(() => 200);
    let now = 0;
    const notifier = new Notifier({
      urls: [hook.url],
      mode: 'reconcile',
      log: captureLog().log,
      driftWindowMs: 1000,
      now: () => now,
    });
    // `sent`: how many reports the webhook has after this revert (an unreported one adds none).
    for (const [at, key, sent] of [
      [0, 'ip_policies/a', 1],
      [400, 'ip_policies/a', 1],
      [800, 'ip_policies/b', 2],
      [999, 'ip_policies/a', 2],
      [1000, 'ip_policies/a', 3],
    ] as const) {
      now = at;
      notifier.record(reverted(key));
      if (hook.received.length < sent) await waitFor(`report ${sent}`, () => hook.received.length >= sent);
    }
    await notifier.close();
    expect(hook.received.map((r) => r.objects?.map((o) => o.key).join())).toEqual([
      'ip_policies/a',
      'ip_policies/b',
      'ip_policies/a',
    ]);
  });
});
