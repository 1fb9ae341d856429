import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { DriftEvent } from '../../src/watch/drift.js';
import type { ReconcileRecord } from '../../src/watch/loop.js';
import { Notifier, parseNotifyUrls } from '../../src/watch/notify.js';
import type { ReconcileResult } from '../../src/watch/types.js';
import { captureLog } from './log-capture.js';

const drifted: DriftEvent = {
  kind: 'ip_policies',
  key: 'ip_policies/p0',
  action: 'update',
  changes: [{ field: 'description', old: 'by hand', new: 'one' }],
  reverted: false,
};

function record(result: ReconcileResult): ReconcileRecord {
  return {
    id: 'abcd1234',
    trigger: 'interval',
    result,
    startedAt: new Date(),
    durationMs: 5,
    failures: 0,
    drift: false,
    apiRequests: 20,
  };
}

describe('Notifier', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  /** `hang`: accept requests and never answer, like a dead webhook behind a load balancer. */
  async function receiver(hang = false): Promise<{ url: string; events: string[] }> {
    const events: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        events.push((JSON.parse(body) as { event: string }).event);
        if (!hang) res.end('ok');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, events };
  }

  it('sends observed drift once until it changes, and a lasting failure again only as a backing-off reminder', async () => {
    const { url, events } = await receiver();
    let now = 0;
    const notifier = new Notifier({
      urls: [url],
      mode: 'observe',
      log: captureLog().log,
      reminderMs: 1000,
      now: () => now,
    });
    const observed = record({ status: 'success', planned: 1, applied: [], drift: [drifted] });
    notifier.record(observed);
    notifier.record(observed);
    notifier.record(
      record({
        status: 'success',
        planned: 1,
        applied: [],
        drift: [{ ...drifted, changes: [{ field: 'description', old: 'again', new: 'one' }] }],
      }),
    );
    const failed = record({ status: 'failed', planned: 0, applied: [], reason: 'GET /a: 500' });
    for (const at of [0, 500, 1000, 1500, 2999, 3000]) {
      now = at;
      notifier.record({ ...failed, result: { ...failed.result, reason: `GET /${at}: 500` } });
    }
    await notifier.close();
    // Failure sent at 0, reminded at 1000 (after 1 s), then at 3000 (after 2 s). The first drift
    // report was in flight; the second waited, and the failures went before it.
    expect(events).toEqual(['drift_found', 'apply_failed', 'apply_failed', 'apply_failed', 'drift_found']);
  });

  it('never makes the caller wait for a webhook that does not answer', async () => {
    const { url, events } = await receiver(true);
    const { log, entries } = captureLog();
    const notifier = new Notifier({
      urls: [url],
      mode: 'reconcile',
      log,
      timeoutMs: 100,
      attempts: 2,
      backoff: { baseMs: 10, maxMs: 10 },
    });
    const started = Date.now();
    notifier.record(record({ status: 'invalid_config', planned: 0, applied: [], reason: 'bad' }));
    expect(Date.now() - started).toBeLessThan(50);
    await notifier.close();
    expect(events).toEqual(['config_invalid', 'config_invalid']);
    expect(entries().find((e) => e.msg === 'notification not delivered')).toMatchObject({
      attempt: 2,
      target: url.replace(/\/$/, ''),
    });
  });

  it('accepts only http(s) URLs', () => {
    expect(parseNotifyUrls(['https://hooks.example.com/T/B/x'])).toEqual(['https://hooks.example.com/T/B/x']);
    expect(() => parseNotifyUrls(['ftp://x'])).toThrow('--notify ftp://x is not an http(s) URL');
    expect(() => parseNotifyUrls(['hooks'])).toThrow('not an http(s) URL');
  });
});
