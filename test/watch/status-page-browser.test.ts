/**
 * The daemon's status page (`GET /`) in Chromium, as an operator opens it: the built CLI's `watch`
 * against the emulator, the page loaded from its port. It must load with no console error (a CSP
 * violation is one) and request nothing but its own origin, follow the daemon by itself (a config
 * edit, a hand change), show dashboard-set text as text, and read on a phone. Each state's
 * screenshot is kept in test-artifacts/status-page/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium, noChromium, screenshot, watchPage, type PageWatch } from '../support/chromium.js';
import { policyFile, startReady, waitFor, type WatchedDaemon } from './daemon-harness.js';

const slow = 90_000;

describe.skipIf(noChromium !== undefined)('the status page in Chromium', { timeout: slow }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, slow);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(
    d: WatchedDaemon,
    options: BrowserContextOptions = {},
  ): Promise<{ page: Page; watch: PageWatch }> {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const watch = watchPage(page);
    const response = await page.goto(`${d.url}/`);
    expect(response?.status()).toBe(200);
    return { page, watch };
  }

  const stateOf = (page: Page, key: string): Promise<string | null> =>
    page
      .locator(`tr[data-key="${key}"]`)
      .getAttribute('data-state', { timeout: 1_000 })
      .catch(() => null);

  /** Polled: the page changes by its own script, no reload. */
  const waitForState = (page: Page, key: string, state: string): Promise<true> =>
    waitFor(`${key} shown as ${state}`, async () => (await stateOf(page, key)) === state, 30_000);

  const onlyOwnOrigin = (d: WatchedDaemon, watch: PageWatch): void => {
    const origin = new URL(d.url).origin;
    expect(watch.requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  };

  it('loads cleanly, shows the objects and the last reconcile, and follows a config edit and a hand change', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('office') } });
    const { page, watch } = await open(d);
    await expect(page.locator('#scope').innerText()).resolves.toBe('watch-test');
    expect(await stateOf(page, 'ip_policies/p0')).toBe('in sync');
    const last = page.locator('#reconciles tbody tr').first();
    await expect(last.innerText()).resolves.toMatch(/start\s+success/);
    expect(await page.locator('#change').innerText()).toContain('create ip_policies ip_policies/p0');
    await screenshot(page, 'status-page', '1-in-sync');
    // A marker the page keeps only if it is never reloaded: the script swaps the content in.
    await page.evaluate('window.kept = 1');

    await d.writeConfig('policies.yaml', policyFile('office', 'lab'));
    await waitForState(page, 'ip_policies/p1', 'in sync');
    await expect(last.innerText()).resolves.toMatch(/change\s+success/);
    expect(await page.locator('#reconciles').innerText()).toContain('create ip_policies/p1');
    await screenshot(page, 'status-page', '2-after-config-edit');

    const policy = (await d.policies()).find((p) => p.description === 'office');
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: 'changed by hand' });
    // The next reconcile finds the hand change: one a comment in the config triggers, not the 10m resync.
    await d.writeConfig('policies.yaml', `${policyFile('office', 'lab')}# reviewed\n`);
    await waitForState(page, 'ip_policies/p0', 'drift reverted');
    expect(await page.locator('tr[data-key="ip_policies/p0"]').innerText()).toContain(
      'description: "changed by hand" → "office"',
    );
    expect(await page.locator('#reconciles tbody tr').first().innerText()).toContain('drift: 1 object');
    await screenshot(page, 'status-page', '3-drift-reverted');

    expect(await page.evaluate('window.kept')).toBe(1);
    expect(watch.errors).toEqual([]);
    onlyOwnOrigin(d, watch);
    expect(watch.requests.some((url) => url.endsWith('/status'))).toBe(true);
  });

  it('shows a hostile description from the config and from the dashboard as text, running nothing', async (context) => {
    const hostile = `<img src=x onerror="window.pwned=1">`;
    const d = await startReady(context, { files: { 'policies.yaml': policyFile(`'${hostile}'`) } });
    const { page, watch } = await open(d);
    const [policy] = await d.policies();
    const byHand = `</pre><script>window.pwned=2</script>`;
    await d.api.patch(`/ip_policies/${policy?.id ?? ''}`, { description: byHand });
    await d.writeConfig('policies.yaml', `${policyFile(`'${hostile}'`)}# reviewed\n`);
    await waitForState(page, 'ip_policies/p0', 'drift reverted');

    const row = page.locator('tr[data-key="ip_policies/p0"]');
    expect(await row.innerText()).toContain(
      `description: ${JSON.stringify(byHand)} → ${JSON.stringify(hostile)}`,
    );
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(await page.evaluate('window.pwned')).toBeUndefined();
    expect(watch.errors).toEqual([]);
    onlyOwnOrigin(d, watch);
    await screenshot(page, 'status-page', '4-hostile-description');
  });

  it('reads on a phone and with scripts off', async (context) => {
    const d = await startReady(context, { files: { 'policies.yaml': policyFile('office', 'lab', 'vpn') } });
    const phone = await open(d, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const overflow = await phone.page.evaluate(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await stateOf(phone.page, 'ip_policies/p2')).toBe('in sync');
    expect(phone.watch.errors).toEqual([]);
    await screenshot(phone.page, 'status-page', '5-phone');

    const noScript = await open(d, { javaScriptEnabled: false });
    expect(await stateOf(noScript.page, 'ip_policies/p2')).toBe('in sync');
    await expect(noScript.page.locator('#reconciles tbody tr').first().innerText()).resolves.toMatch(
      /start\s+success/,
    );
    // Without the script, the page reloads itself.
    expect(await noScript.page.locator('noscript').innerHTML()).toContain('http-equiv="refresh"');
    onlyOwnOrigin(d, noScript.watch);
  });
});
