import { rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplesOf } from './prometheus.js';
import { policyFile, startReady, waitFor, type WatchedDaemon } from './daemon-harness.js';

const descriptions = async (d: WatchedDaemon): Promise<string[]> =>
  (await d.policies()).map((p) => p.description).sort();

// Each test has its own emulator, config directory and daemon process. Most of a test's time is
// the daemon's start and first config load (schema compilation); deadlines are generous for busy CI.
describe('acctsync watch against the emulator', { timeout: 60_000 }, () => {
  it('applies the config at start and then every edit', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') } });
    expect(await descriptions(d)).toEqual(['one']);
    await d.writeConfig('policies.yaml', policyFile('two', 'three'));
    await waitFor(
      'the edit to reach the account',
      async () => (await descriptions(d)).join() === 'three,two',
    );
    // The result line follows the last operation: wait for it rather than racing it.
    await waitFor('the change reconcile to be logged', () => d.reconciles().length === 2);
    expect(d.reconciles().map((r) => r.trigger)).toEqual(['start', 'change']);
  });

  it('applies an atomic save (temp file renamed over the original) exactly once', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') } });
    const target = join(d.configDir, 'policies.yaml');
    await writeFile(`${target}.tmp`, policyFile('saved'));
    await rename(`${target}.tmp`, target);
    await waitFor('the save to reach the account', async () => (await descriptions(d)).join() === 'saved');
    await waitFor('the change reconcile to be logged', () => d.reconciles().length === 2);
    // A sentinel change after the save: the watcher reports events in order, so anything left of
    // the save's burst comes before (or with) the sentinel's, which is waited for, not slept on.
    await writeFile(join(d.configDir, 'README.md'), 'notes\n');
    const changes = () => d.logs.filter((e) => e.msg === 'config changed');
    const sentinel = (e: (typeof d.logs)[number]) =>
      Array.isArray(e.paths) && e.paths.some((p) => String(p).endsWith('README.md'));
    await waitFor('the sentinel change to be seen', () => changes().some(sentinel));
    await waitFor('its reconcile to be logged', () => d.reconciles().length === 3);
    expect(changes().map((e) => [...new Set((e.paths as string[]).map((p) => basename(p)))])).toEqual([
      ['policies.yaml'],
      ['README.md'],
    ]);
    expect(d.reconciles().filter((r) => r.trigger === 'change')).toHaveLength(2);
    expect(d.requests('PATCH', '/ip_policies')).toBe(1);
  });

  it.for([
    ['emptied', '', /the file is empty/],
    ['syntactically broken', 'version: 1\nip_policies:\n  p0: [unclosed\n', /error/],
  ] as const)('an %s file deletes nothing and /readyz says why', async ([, text, why], context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one', 'two') } });
    await d.writeConfig('policies.yaml', text);
    const { body } = await waitFor('/readyz to report the broken config', async () => {
      const r = await d.readyz();
      return r.status === 503 ? r : undefined;
    });
    expect(body).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/^invalid_config: the config failed to load/) as string,
    });
    expect((body.details as string[]).join('\n')).toMatch(why);
    expect(body.reason).toMatch(
      /nothing was changed, keeping the desired state last applied at .* \(2 objects\)/,
    );
    expect(await descriptions(d)).toEqual(['one', 'two']);
    expect(d.requests('DELETE')).toBe(0);

    await d.writeConfig('policies.yaml', policyFile('one', 'two'));
    await waitFor('recovery', async () => (await d.readyz()).status === 200);
    expect(d.logs.some((e) => e.msg === 'reconcile recovered')).toBe(true);
  });

  it('reverts a manual change in the account on the next interval and counts the drift', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') }, interval: '1s' });
    const [policy] = await d.policies();
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'changed by hand' });
    await waitFor('the drift to be reverted', async () => (await descriptions(d)).join() === 'one', 5000);
    const drift = await waitFor('the drift to be logged', () =>
      d.logs.find((e) => e.msg?.startsWith('drift detected')),
    );
    expect(drift).toMatchObject({
      level: 'warn',
      reconcile: expect.stringMatching(/^[0-9a-f]{8}$/) as string,
    });

    const exposition = await d.metrics();
    expect(samplesOf(exposition, 'acctsync_drift_detected_total')[0]?.value).toBeGreaterThanOrEqual(1);
    expect(samplesOf(exposition, 'acctsync_operations_applied_total')).toEqual(
      expect.arrayContaining([
        {
          name: 'acctsync_operations_applied_total',
          labels: { kind: 'ip_policies', action: 'create' },
          value: 1,
        },
        {
          name: 'acctsync_operations_applied_total',
          labels: { kind: 'ip_policies', action: 'update' },
          value: 1,
        },
      ]),
    );
    const successes = samplesOf(exposition, 'acctsync_reconciles_total').find(
      (s) => s.labels.result === 'success',
    );
    expect(successes?.value).toBeGreaterThanOrEqual(2);
    const durations = samplesOf(exposition, 'acctsync_reconcile_duration_seconds_count');
    expect(durations.reduce((sum, sample) => sum + sample.value, 0)).toBeGreaterThanOrEqual(2);
    expect(durations.find((sample) => sample.labels.trigger === 'interval')?.labels.result).toBe('success');
    expect(samplesOf(exposition, 'acctsync_last_success_timestamp_seconds')[0]?.value).toBeGreaterThan(0);
    const byStatus = samplesOf(exposition, 'acctsync_api_requests_total');
    expect(
      byStatus.find((s) => s.labels.method === 'GET' && s.labels.status === '200')?.value,
    ).toBeGreaterThan(0);
    // The policy's create, and the daemon's lease on its scope (docs/lease.md).
    expect(byStatus.find((s) => s.labels.method === 'POST' && s.labels.status === '201')?.value).toBe(2);
  });

  it('exits 0 on SIGTERM in the middle of a reconcile, finishing the operation in flight', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') } });
    const startupWrites = d.requests('POST', '/ip_policies') + d.requests('PATCH', '/ip_policies');
    d.emulator.setFaults({ latencyMs: 400 });
    await d.writeConfig('policies.yaml', policyFile('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'));
    const change = await waitFor('the change reconcile', () =>
      d.logs.find((e) => e.msg === 'reconcile started' && e.trigger === 'change'),
    );
    await waitFor('the apply to start', () =>
      d.logs.some((e) => e.msg === 'plan has changes' && e.reconcile === change.reconcile),
    );
    const patchesBefore = d.requests('PATCH') + d.requests('POST');
    d.child.kill('SIGTERM');
    const started = Date.now();
    expect(await d.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(d.logs.some((e) => e.msg === 'stopped')).toBe(true);
    const last = d.reconciles().at(-1);
    // Stopped, not failed: the operations left are the next start's, and nobody is alerted.
    expect(last).toMatchObject({ trigger: 'change', status: 'stopped', level: 'warn' });
    // Operations that started finished; the rest of the ten were never sent (the lease's own writes,
    // its switch to the writing TTL and back, are not the plan's).
    expect(d.requests('PATCH') + d.requests('POST')).toBeGreaterThanOrEqual(patchesBefore);
    const policyWrites = (): number =>
      d.requests('POST', '/ip_policies') + d.requests('PATCH', '/ip_policies');
    expect(policyWrites() - startupWrites).toBeLessThan(10);
    expect(d.emulator.stats().routes.some((r) => r.status === 'dropped')).toBe(false);
  });
});
