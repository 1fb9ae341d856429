/**
 * A write the service does not keep, through the spawned `watch`: sent twice on consecutive
 * reconciles, then held back and reported `not converging` in /status, /readyz, the metrics and a
 * notification; sent again once the live value (or the config) changes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { policyFile, startReady, waitFor } from './daemon-harness.js';

describe('watch: a write that does not converge', { timeout: 120_000 }, () => {
  it('is sent twice, then held and reported until the live value changes', async (context) => {
    const bodies: { event: string; text: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        bodies.push(JSON.parse(body) as { event: string; text: string });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    context.onTestFinished(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const d = await startReady(context, {
      files: { 'policies.yaml': policyFile('one') },
      interval: '1s',
      args: ['--notify', hook],
    });
    const patches = (): number => d.requests('PATCH', '/ip_policies');
    const before = patches();
    // The service now accepts a description and keeps the old one.
    d.emulator.setFaults({ notKept: 'description' });
    await d.writeConfig('policies.yaml', policyFile('two'));

    const status = await waitFor(
      'the policy reported not converging',
      async () => {
        const s = await d.status();
        return Array.isArray(s.notConverging) && s.notConverging.length > 0 ? s : undefined;
      },
      60_000,
    );
    expect(status.notConverging).toMatchObject([
      { key: 'ip_policies/p0', kind: 'ip_policies', action: 'update', fields: ['description'], sent: 2 },
    ]);
    expect(patches() - before).toBe(2);
    const ready = await d.readyz();
    expect(ready.status).toBe(200);
    expect(ready.body.notConverging).toEqual([
      expect.stringMatching(
        /^not converging: ip_policies\/p0 \(description\): the same update was sent 2 times/,
      ),
    ]);
    const gauge = (await d.metrics()).samples.find(
      (s) => s.name === 'acctsync_not_converging_objects' && s.labels.kind === 'ip_policies',
    );
    expect(gauge?.value).toBe(1);
    await waitFor('the notification', () => bodies.some((b) => b.event === 'not_converging'), 20_000);
    expect(bodies.find((b) => b.event === 'not_converging')?.text).toContain('ip_policies/p0 (description)');

    // Held: more reconciles run, the same write is not sent again.
    const reconciles = d.reconciles().length;
    await waitFor('two more reconciles', () => d.reconciles().length >= reconciles + 2, 30_000);
    expect(patches() - before).toBe(2);
    expect(bodies.filter((b) => b.event === 'not_converging')).toHaveLength(1);

    // The service keeps values again and someone edits the live value: the write differs, is sent,
    // and the object converges.
    d.emulator.setFaults({});
    const [policy] = await d.policies();
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'by hand' });
    await waitFor(
      'the config value back in the account',
      async () => (await d.policies())[0]?.description === 'two',
      30_000,
    );
    await waitFor(
      'not converging cleared',
      async () => (await d.status()).notConverging === undefined,
      30_000,
    );
    const cleared = (await d.metrics()).samples.find(
      (s) => s.name === 'acctsync_not_converging_objects' && s.labels.kind === 'ip_policies',
    );
    expect(cleared?.value).toBe(0);
  });
});
