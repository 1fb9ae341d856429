import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { policyFile, startWatch, waitFor } from './daemon-harness.js';

/** A webhook receiver on a local port; it answers the very first POST with 503, as a flaky hook would. */
async function startReceiver(): Promise<{
  url: string;
  bodies: string[];
  posts: () => number;
  server: Server;
}> {
  const bodies: string[] = [];
  let posts = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      posts++;
      if (posts === 1) {
        res.writeHead(503).end();
        return;
      }
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, posts: () => posts, server };
}

describe('watch --notify', { timeout: 90_000 }, () => {
  it('posts exactly one notification per distinct event through drift, failures and recoveries, none with a secret', async (context) => {
    const receiver = await startReceiver();
    context.onTestFinished(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
    const d = await startWatch({
      files: { 'policies.yaml': policyFile('one') },
      interval: '1s',
      args: ['--notify', receiver.url],
    });
    context.onTestFinished(() => d.close());
    const events = (): string[] => receiver.bodies.map((b) => (JSON.parse(b) as { event: string }).event);
    await waitFor('the first reconcile to succeed', async () => (await d.readyz()).status === 200, 20_000);

    const [policy] = await d.policies();
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'changed by hand' });
    // The receiver refused the first POST: it arrives on the retry, once.
    await waitFor('the drift notification', () => events().length === 1, 15_000);

    const count = (status: string): number => d.reconciles().filter((r) => r.status === status).length;
    await d.writeConfig('policies.yaml', 'version: 1\nip_policies:\n  p0: [unclosed\n');
    await waitFor('three invalid_config reconciles', () => count('invalid_config') >= 3, 20_000);
    await d.writeConfig('policies.yaml', policyFile('one'));
    await waitFor('recovery', async () => (await d.readyz()).status === 200, 15_000);

    d.emulator.setFaults({ error500: 1 });
    await waitFor('two failed reconciles', () => count('failed') >= 2, 40_000);
    d.emulator.setFaults({});
    await waitFor('the second recovery', () => events().length === 5, 20_000);
    // Two more resyncs, then a sentinel: a failure now is notified after anything those resyncs
    // queued (one worker posts in order), so a duplicate would show before it, not after a sleep.
    const resyncs = d.reconciles().length;
    await waitFor('two more resyncs', () => d.reconciles().length >= resyncs + 2, 20_000);
    d.emulator.setFaults({ error500: 1 });
    await waitFor('the sentinel failure notification', () => events().length >= 6, 20_000);
    d.emulator.setFaults({});

    expect(events()).toEqual([
      'drift_reverted',
      'config_invalid',
      'recovered',
      'apply_failed',
      'recovered',
      'apply_failed',
    ]);
    const [drift, invalid, , failed] = receiver.bodies.map((b) => JSON.parse(b) as Record<string, unknown>);
    expect(drift).toMatchObject({
      mode: 'reconcile',
      text: expect.stringContaining('ip_policies/p0 (description)') as string,
      objects: [
        { key: 'ip_policies/p0', changes: [{ field: 'description', old: 'changed by hand', new: 'one' }] },
      ],
    });
    expect(invalid).toMatchObject({
      status: 'invalid_config',
      text: expect.stringContaining('the config is invalid') as string,
    });
    expect(failed).toMatchObject({ status: 'failed', text: expect.any(String) as string });
    for (const body of receiver.bodies) expect(body).not.toContain(d.emulator.token);
  });

  it('reports drift on an object holding a secret without the secret', async (context) => {
    const canary = 'canary-oidc-secret-7f3a91';
    const receiver = await startReceiver();
    context.onTestFinished(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));
    const d = await startWatch({
      files: { 'edges.yaml': edgeWithSecret('one') },
      interval: '1s',
      args: ['--notify', receiver.url],
      env: { WATCH_OIDC_SECRET: canary },
    });
    context.onTestFinished(() => d.close());
    await waitFor('the first reconcile to succeed', async () => (await d.readyz()).status === 200, 20_000);
    const edges = await d.api.get<{ https_edges: { id: string }[] }>('/edges/https');
    const [edge] = edges.body.https_edges;
    await d.api.patch(`/edges/https/${edge?.id ?? ''}`, { description: 'changed by hand' });
    // The receiver refuses the first POST: the drift arrives on the retry.
    await waitFor('the drift notification', () => receiver.bodies.length === 1, 15_000);

    expect(JSON.parse(receiver.bodies[0] ?? '{}')).toMatchObject({
      event: 'drift_reverted',
      objects: [
        { key: 'https_edges/web', changes: [{ field: 'description', old: 'changed by hand', new: 'one' }] },
      ],
    });
    for (const body of receiver.bodies) expect(body).not.toContain(canary);
    expect(JSON.stringify(d.logs)).not.toContain(canary);
  });
});

/** An HTTPS edge whose route holds an OIDC client secret taken from WATCH_OIDC_SECRET. */
const edgeWithSecret = (description: string): string => `version: 1
scope: watch-test
backends:
  web:
    tunnel_group: { labels: { app: web } }
https_edges:
  web:
    description: ${description}
    hostports: ['www.example.com:443']
    routes:
      - match_type: path_prefix
        match: /
        backend: { backend: web }
        oidc:
          issuer: https://accounts.example.com
          client_id: watch
          client_secret: { env: WATCH_OIDC_SECRET }
          scopes: [openid]
`;
