import { afterEach, describe, expect, it } from 'vitest';
import { builtinKinds } from '../../src/resources/index.js';
import { startHealthServer, type HealthServer } from '../../src/watch/health.js';
import { ReadinessState } from '../../src/watch/readiness.js';
import type { ReconcileRecord } from '../../src/watch/loop.js';
import { WatchMetrics } from '../../src/watch/metrics.js';
import type { ReconcileResult } from '../../src/watch/types.js';
import { parseExposition, samplesOf } from './prometheus.js';

function record(result: ReconcileResult, extra: Partial<ReconcileRecord> = {}): ReconcileRecord {
  return {
    id: 'abcd1234',
    trigger: 'start',
    result,
    startedAt: new Date(),
    durationMs: 120,
    failures: 0,
    drift: false,
    apiRequests: 20,
    ...extra,
  };
}

describe('health endpoints', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  async function start() {
    const readiness = new ReadinessState();
    const metrics = new WatchMetrics(builtinKinds);
    server = await startHealthServer({ host: '127.0.0.1', port: 0, readiness, metrics });
    return { readiness, metrics, url: server.url };
  }

  it('answers /healthz at once and /readyz 503 until a reconcile succeeded', async () => {
    const { readiness, url } = await start();
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const before = await fetch(`${url}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ ready: false, reason: 'no reconcile has finished yet' });

    readiness.record(record({ status: 'success', planned: 2, applied: [] }));
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      lastReconcile: { status: 'success', planned: 2 },
    });

    readiness.record(
      record(
        {
          status: 'invalid_config',
          planned: 0,
          applied: [],
          reason: '1 error in the config',
          details: ['a.yaml:1:1: bad'],
        },
        { failures: 1 },
      ),
    );
    const broken = await fetch(`${url}/readyz`);
    expect(broken.status).toBe(503);
    expect(await broken.json()).toMatchObject({
      ready: false,
      reason: 'invalid_config: 1 error in the config',
      details: ['a.yaml:1:1: bad'],
      failures: 1,
      lastSuccessAt: expect.any(String) as string,
    });
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('caps the details of a failure at 20 and counts the rest, in /readyz and /status', async () => {
    const { readiness, url } = await start();
    const details = Array.from(
      { length: 436 },
      (_, i) => `create ip_policies/p${i}: FAILED ERR_SVC_500: boom`,
    );
    readiness.record(
      record(
        { status: 'failed', planned: 436, applied: [], reason: '436 operations failed', details },
        { failures: 1 },
      ),
    );
    const ready = (await (await fetch(`${url}/readyz`)).json()) as { details: string[]; moreDetails: number };
    expect(ready.details).toEqual(details.slice(0, 20));
    expect(ready.moreDetails).toBe(416);
    const status = (await (await fetch(`${url}/status`)).json()) as {
      lastError: { details: string[]; moreDetails: number };
    };
    expect(status.lastError.details).toHaveLength(20);
    expect(status.lastError.moreDetails).toBe(416);
  });

  it('leaves readiness and the last error as they were when a reconcile is stopped', async () => {
    const { readiness, url } = await start();
    readiness.record(record({ status: 'success', planned: 0, applied: [] }));
    readiness.record(record({ status: 'stopped', planned: 3, applied: [], reason: 'the daemon stopped' }));
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const status = (await (await fetch(`${url}/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ ready: true, lastReconcile: { status: 'success' } });
    expect(status.lastError).toBeUndefined();
  });

  it('serves every metric in Prometheus text format', async () => {
    const { metrics, url } = await start();
    // Operations are counted as they finish, before their reconcile ends.
    for (const op of [
      { kind: 'ip_policy', key: 'ip_policies/a', action: 'create', outcome: 'succeeded' },
      { kind: 'ip_policy', key: 'ip_policies/b', action: 'create', outcome: 'succeeded' },
      { kind: 'api_key', key: 'api_keys/a', action: 'update', outcome: 'succeeded' },
      { kind: 'api_key', key: 'api_keys/b', action: 'update', outcome: 'failed' },
      { kind: 'api_key', key: 'api_keys/c', action: 'delete', outcome: 'stopped' },
    ] as const)
      metrics.recordOperation(op);
    metrics.recordReconcile(
      record({
        status: 'success',
        planned: 2,
        applied: [
          { kind: 'ip_policy', key: 'ip_policies/a', action: 'create' },
          { kind: 'ip_policy', key: 'ip_policies/b', action: 'create' },
        ],
      }),
    );
    const drifted = (kind: string, key: string) =>
      ({ kind, key, action: 'update', changes: [], reverted: false }) as const;
    metrics.recordReconcile(
      record(
        {
          status: 'success',
          planned: 1,
          applied: [{ kind: 'api_key', key: 'api_keys/a', action: 'update' }],
          drift: [drifted('backends', 'backends/a'), drifted('backends', 'backends/b')],
        },
        { trigger: 'interval', drift: true },
      ),
    );
    const afterSuccess = parseExposition(await metrics.render().then((m) => m.text));
    expect(samplesOf(afterSuccess, 'acctsync_ready')[0]?.value).toBe(1);
    metrics.recordReconcile(
      record({ status: 'refused', planned: 12, applied: [], reason: 'mass delete' }, { failures: 1 }),
    );
    // A config that fails to load never reached the API: the drift it last saw stands.
    metrics.recordReconcile(
      record({ status: 'invalid_config', planned: 0, applied: [], reason: 'bad' }, { failures: 2 }),
    );
    metrics.recordReconcile(
      record(
        { status: 'success', planned: 1, applied: [], drift: [drifted('backends', 'backends/a')] },
        { trigger: 'interval', drift: true },
      ),
    );
    metrics.recordReconcile(
      record({ status: 'invalid_config', planned: 0, applied: [], reason: 'bad' }, { failures: 1 }),
    );
    metrics.api.recordResponse({
      method: 'GET',
      path: '/ip_policies',
      status: 200,
      durationMs: 3,
      attempt: 1,
    });
    metrics.api.recordResponse({
      method: 'POST',
      path: '/ip_policies',
      status: 429,
      durationMs: 3,
      attempt: 1,
    });
    metrics.api.recordResponse({
      method: 'POST',
      path: '/ip_policies',
      status: 'error',
      durationMs: 3,
      attempt: 2,
    });

    const res = await fetch(`${url}/metrics`);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const exposition = parseExposition(await res.text());

    const reconciles = samplesOf(exposition, 'acctsync_reconciles_total');
    expect(Object.fromEntries(reconciles.map((s) => [s.labels.result, s.value]))).toEqual({
      success: 3,
      invalid_config: 2,
      refused: 1,
      failed: 0,
      stopped: 0,
    });
    expect(exposition.types.get('acctsync_reconcile_duration_seconds')).toBe('histogram');
    const durations = samplesOf(exposition, 'acctsync_reconcile_duration_seconds_count');
    expect(durations.reduce((sum, s) => sum + s.value, 0)).toBe(6);
    expect(
      durations.find((s) => s.labels.trigger === 'interval' && s.labels.result === 'success')?.value,
    ).toBe(2);
    const outcomes = samplesOf(exposition, 'acctsync_operations_total').filter((s) => s.value > 0);
    expect(outcomes.map((s) => [s.labels.kind, s.labels.action, s.labels.outcome, s.value])).toEqual(
      expect.arrayContaining([
        ['ip_policy', 'create', 'succeeded', 2],
        ['api_key', 'update', 'failed', 1],
        ['api_key', 'delete', 'stopped', 1],
      ]),
    );
    expect(samplesOf(exposition, 'acctsync_operations_applied_total')).toEqual(
      expect.arrayContaining([
        {
          name: 'acctsync_operations_applied_total',
          labels: { kind: 'ip_policy', action: 'create' },
          value: 2,
        },
        {
          name: 'acctsync_operations_applied_total',
          labels: { kind: 'api_key', action: 'update' },
          value: 1,
        },
      ]),
    );
    expect(samplesOf(exposition, 'acctsync_drift_detected_total')[0]?.value).toBe(2);
    expect(samplesOf(exposition, 'acctsync_ready')[0]?.value).toBe(0);
    const drift = samplesOf(exposition, 'acctsync_drifted_objects');
    expect(drift.find((s) => s.labels.kind === 'backends')?.value).toBe(1);
    expect(drift.find((s) => s.labels.kind === 'ip_policies')?.value).toBe(0);
    // Kinds as the config names them: no API collection names.
    expect(drift.map((s) => s.labels.kind)).not.toContain('tunnel_group_backends');
    expect(samplesOf(exposition, 'acctsync_build_info')).toEqual([
      {
        name: 'acctsync_build_info',
        labels: {
          version: expect.stringMatching(/^\d+\.\d+\.\d+/) as string,
          nodejs_version: process.versions.node,
          mode: 'reconcile',
        },
        value: 1,
      },
    ]);
    const lastSuccess = samplesOf(exposition, 'acctsync_last_success_timestamp_seconds')[0]?.value ?? 0;
    expect(Math.abs(lastSuccess - Date.now() / 1000)).toBeLessThan(60);
    expect(
      samplesOf(exposition, 'acctsync_api_requests_total').map((s) => [
        s.labels.method,
        s.labels.status,
        s.value,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['GET', '200', 1],
        ['POST', '429', 1],
        ['POST', 'error', 1],
      ]),
    );
    // Node's default metrics under their standard names, as stock dashboards query them.
    expect(exposition.types.get('process_resident_memory_bytes')).toBe('gauge');
    expect(exposition.types.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect([...exposition.types.keys()].filter((name) => /^acctsync_(process|nodejs)_/.test(name))).toEqual(
      [],
    );
    // A `_total` name promises a counter: prom-client's default gauges named so are dropped.
    expect(
      [...exposition.types].filter(([name, type]) => name.endsWith('_total') && type !== 'counter'),
    ).toEqual([]);
    expect(exposition.types.get('nodejs_active_handles')).toBe('gauge');
  });
});
