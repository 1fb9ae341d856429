/**
 * The status page (`GET /`) over HTTP, as any client reads it: the built CLI's `watch` against the
 * emulator. Its headers allow nothing but its own nonce'd style and script, and it is rendered on
 * the server: the objects, their state and a hand change's diff are in the HTML itself, escaped.
 * test/watch/status-page-browser.test.ts drives the same page in Chromium.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import type { TestAccount } from '../support/account.js';
import { policyFile, startReady, startWatch, waitFor } from './daemon-harness.js';

const nonceOf = (csp: string, directive: string): string | undefined =>
  new RegExp(`${directive} 'nonce-([A-Za-z0-9+/=]+)'`).exec(csp)?.[1];

/** What someone with the dashboard writes into a description. */
const hostile = '<img src=x onerror=alert(1)>';

/** The config synced by hand before the daemon starts, then its one policy's description changed in the dashboard. */
async function syncedThenEdited(account: TestAccount): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-status-page-'));
  try {
    await writeFile(join(dir, 'policies.yaml'), policyFile('office'));
    const synced = await runCli(['sync', '.'], { cwd: dir, env: account.env });
    expect(synced.code, synced.stderr).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for await (const p of account.client.list<{ id: string }>('/ip_policies', 'ip_policies'))
    await account.client.patch(`/ip_policies/${p.id}`, { description: hostile });
}

describe('the status page over HTTP', { timeout: 60_000 }, () => {
  it('is one document with a strict policy: its own nonce for its inline style and script, nothing to load', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('office') } });
    const res = await fetch(`${d.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none';/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe');
    const nonce = nonceOf(csp, 'script-src');
    expect(nonce).toBeDefined();
    expect(nonceOf(csp, 'style-src')).toBe(nonce);
    const page = await res.text();
    expect(page.match(/<script\b[^>]*>/g)).toEqual([`<script nonce="${nonce}">`]);
    expect(page.match(/<style\b[^>]*>/g)).toEqual([`<style nonce="${nonce}">`]);
    // Nothing fetched from anywhere, nothing to submit.
    expect(page).not.toMatch(/\s(src|href|action|srcset)=/i);
    expect(page).not.toMatch(/<(form|input|button|link|iframe)\b/i);
    expect(page).toMatch(/<meta name="viewport" content="width=device-width, initial-scale=1"\s*\/?>/);

    expect(page).toContain('<dd id="scope">watch-test</dd>');
    expect(page).toMatch(/<tr data-key="ip_policies\/p0" data-state="in sync">/);
    expect(page).toMatch(
      /<td data-label="Trigger">start<\/td>\s*<td data-label="Status">\s*<span [^>]*>success</,
    );

    const again = await fetch(`${d.url}/`);
    expect(nonceOf(again.headers.get('content-security-policy') ?? '', 'script-src')).not.toBe(nonce);
    const head = await fetch(`${d.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(`${d.url}/`, { method: 'POST' })).status).toBe(405);
    // What a browser asks for besides the page: nothing, and no 404 in its console.
    expect((await fetch(`${d.url}/favicon.ico`)).status).toBe(204);

    expect(await d.status()).toMatchObject({
      scope: 'watch-test',
      lease: {
        state: 'active',
        holder: expect.stringMatching(/^'acctsync watch' on .+ \(pid \d+\)$/) as string,
      },
    });
  });

  it('shows a write the service does not keep as failing with the applier’s line, then not converging', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('one') }, interval: '1s' });
    d.emulator.setFaults({ notKept: 'description' });
    await d.writeConfig('policies.yaml', policyFile('two'));
    const rowIn = async (state: string): Promise<string | undefined> => {
      const page = await (await fetch(`${d.url}/`)).text();
      return new RegExp(`<tr data-key="ip_policies/p0" data-state="${state}">[\\s\\S]*?</tr>`).exec(
        page,
      )?.[0];
    };
    const failing = await waitFor('p0 shown failing', () => rowIn('failing'), 30_000);
    expect(failing).toMatch(/update ip_policies\/p0[^<]*FAILED ERR_ACCTSYNC_NOT_KEPT/);
    const held = await waitFor('p0 shown not converging', () => rowIn('not converging'), 60_000);
    expect(held).toContain('the same update of description was sent 2 times');
    expect(held).toContain('description: &quot;one&quot; → &quot;two&quot;');
  });

  it('observing, shows a dashboard change as drifted with its diff, escaped, and no lease', async (context) => {
    const d = await startWatch({
      files: { 'policies.yaml': policyFile('office') },
      args: ['--mode', 'observe'],
      before: syncedThenEdited,
    });
    context.onTestFinished(() => d.close());
    await waitFor('the first reconcile', async () => (await d.readyz()).status === 200, 30_000);
    const page = await (await fetch(`${d.url}/`)).text();
    const row = /<tr data-key="ip_policies\/p0" data-state="drifted">[\s\S]*?<\/tr>/.exec(page)?.[0] ?? '';
    expect(row).toContain('description: &quot;&lt;img src=x onerror=alert(1)&gt;&quot; → &quot;office&quot;');
    expect(page).not.toContain('<img');
    expect(page).toMatch(/<dd id="lease">none\s*<span [^>]*>\(observe mode never writes\)/);
    expect(await d.status()).toMatchObject({ mode: 'observe', lease: { state: 'none' } });
  });
});
