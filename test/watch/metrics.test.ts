/**
 * The daemon's /metrics as a scraper reads it: parsed by an independent implementation of the
 * Prometheus text format (parse-prometheus-text-format, a port of Prometheus' own Go parser), with
 * every metric docs/watch.md documents present under its documented name and type.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { policyFile, startWatch, waitFor } from './daemon-harness.js';

/** `| \`acctsync_x\` | counter | ...` rows of the metrics table in docs/watch.md. */
function documentedMetrics(): Map<string, string> {
  const doc = readFileSync(new URL('../../docs/watch.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `(acctsync_\w+)` +\| (counter|gauge|histogram|summary) /gm)];
  return new Map(rows.map((row) => [row[1] ?? '', row[2] ?? '']));
}

describe('watch /metrics', { timeout: 60_000 }, () => {
  it('parses as Prometheus text and has every documented metric, with standard process_ and nodejs_ names', async (context) => {
    // A webhook, for the notification metrics (there are none without --notify).
    const hook = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    context.onTestFinished(() => new Promise<void>((resolve) => hook.close(() => resolve())));
    const d = await startWatch({
      files: { 'policies.yaml': policyFile('one') },
      interval: '1s',
      args: ['--notify', `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`],
    });
    context.onTestFinished(() => d.close());
    await waitFor('the first reconcile to succeed', async () => (await d.readyz()).status === 200, 20_000);
    // Drift, so that the drift and operation metrics have samples too.
    const [policy] = await d.policies();
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'changed by hand' });
    await waitFor('the drift to be reverted', async () => (await d.policies())[0]?.description === 'one');

    const families = parsePrometheusTextFormat(await (await fetch(`${d.url}/metrics`)).text());
    const types = new Map(families.map((f) => [f.name, f.type.toLowerCase()]));
    const documented = documentedMetrics();
    expect(documented.size).toBeGreaterThanOrEqual(18);
    for (const [name, type] of documented) expect(types.get(name), name).toBe(type);
    for (const family of families) {
      expect(family.help, family.name).not.toBe('');
      for (const sample of family.metrics)
        for (const value of [sample.value, sample.count, sample.sum, ...Object.values(sample.buckets ?? {})])
          // The text format writes infinity as +Inf (an unpaced client's pace).
          if (value !== undefined)
            expect(Number.isNaN(Number(value.replace(/Inf$/, 'Infinity'))), `${family.name} ${value}`).toBe(
              false,
            );
    }
    const names = [...types.keys()];
    expect(names).toContain('process_cpu_seconds_total');
    expect(names).toContain('process_resident_memory_bytes');
    expect(names).toContain('nodejs_eventloop_lag_seconds');
    expect(names.filter((n) => /^acctsync_(process|nodejs)_/.test(n))).toEqual([]);

    const sample = (name: string) => families.find((f) => f.name === name)?.metrics ?? [];
    expect(sample('acctsync_ready')[0]?.value).toBe('1');
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(sample('acctsync_build_info')[0]?.labels).toMatchObject({ mode: 'reconcile', version });
    expect(sample('acctsync_drift_detected_total')[0]?.value).toBe('1');
    expect(sample('acctsync_operations_applied_total')).toContainEqual(
      expect.objectContaining({ labels: { kind: 'ip_policies', action: 'update' }, value: '1' }),
    );
  });
});
