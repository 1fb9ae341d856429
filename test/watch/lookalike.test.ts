/**
 * The daemon never creates a duplicate beside an object whose ownership marker a dashboard user
 * edited away: the reconcile is `refused` (naming the entry, the id and --adopt), notified and
 * counted, and the account keeps its one policy with its rules.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { startReady, waitFor } from './daemon-harness.js';
import { samplesOf } from './prometheus.js';

const config = `version: 1
scope: watch-test
ip_policies:
  blocked:
    description: Blocked scanners
    rules:
      - { cidr: 198.51.100.0/24, action: deny }
`;

it(
  'refuses, notifies and counts a reconcile that would duplicate a policy whose marker was edited away',
  { timeout: 90_000 },
  async (context) => {
    const bodies: Record<string, unknown>[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(body) as Record<string, unknown>);
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    context.onTestFinished(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const { port } = receiver.address() as AddressInfo;
    const d = await startReady(context, {
      files: { 'policies.yaml': config },
      interval: '1s',
      args: ['--notify', `http://127.0.0.1:${port}/hook`],
    });
    const [policy] = await d.policies();
    if (policy === undefined) throw new Error('the first reconcile made no policy');
    await d.api.patch(`/ip_policies/${policy.id}`, { metadata: 'reviewed by the security team' });

    const refused = await waitFor(
      'a refused reconcile',
      () => d.reconciles().find((r) => r.status === 'refused'),
      30_000,
    );
    expect(refused.reason).toBe(
      `refusing to sync: ip_policies/blocked would be created beside the unmanaged IP policy ${policy.id} (same description): --adopt takes it back`,
    );
    const notified = await waitFor(
      'the notification',
      () => bodies.find((b) => b.status === 'refused'),
      20_000,
    );
    expect(notified.text).toContain(policy.id);
    expect(notified.text).toContain('--adopt');
    const metrics = await d.metrics();
    const counted = samplesOf(metrics, 'acctsync_reconciles_total').find(
      (s) => s.labels.result === 'refused',
    );
    expect(counted?.value).toBeGreaterThanOrEqual(1);
    expect(await d.policies()).toEqual([expect.objectContaining({ id: policy.id })]);
    expect(d.requests('POST', '/ip_policies')).toBe(1);
    expect(d.requests('POST', '/ip_policy_rules')).toBe(1);
  },
);
