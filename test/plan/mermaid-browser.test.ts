/**
 * The change graphs of the markdown plan render, as GitHub renders a ```mermaid block: each block
 * of `plan --output markdown` (the built CLI against the emulator) is drawn by mermaid from npm in
 * Chromium, with GitHub's limits (50,000 characters, 500 edges per diagram), inside a comment of
 * 65,536 characters. The plans are the example account's: a first sync, an update, a rename, a
 * delete, and a first sync of 600 objects. mermaid is served to the page by this test from
 * node_modules, on localhost; the page requests nothing else.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { examplesDir } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { mermaidBlocks } from '../support/diagrams.js';
import { launchChromium, noChromium, screenshot, watchPage, type PageWatch } from '../support/chromium.js';

const mermaidBundle = new URL('../../node_modules/mermaid/dist/mermaid.min.js', import.meta.url).pathname;

/** GitHub's: mermaid's defaults, inside the largest comment. */
const limits = { diagramChars: 50_000, edges: 500, commentChars: 65_536 };

const page = `<!doctype html>
<meta charset="utf-8">
<title>mermaid</title>
<script src="/mermaid.min.js"></script>
<script>
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', maxTextSize: ${limits.diagramChars}, maxEdges: ${limits.edges} });
</script>
<div id="out"></div>
`;

/** Serves the page and mermaid's bundle to the browser, from this machine only. */
async function serveMermaid(): Promise<{ server: Server; url: string }> {
  const bundle = readFileSync(mermaidBundle);
  const server = createServer((req, res) => {
    if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    else if (req.url === '/mermaid.min.js')
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    // The browser asks for an icon; a 404 would be a console error.
    else if (req.url === '/favicon.ico') res.writeHead(204).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** 200 IP policies, a rule each, and a restriction enforcing each: 600 objects, every one with an edge. */
function sixHundredObjects(): string {
  const lines = ['version: 1', 'scope: large', 'ip_policies:'];
  for (let i = 0; i < 200; i++)
    lines.push(
      `  net-${i}:`,
      `    description: Network ${i}`,
      '    rules:',
      `      - { cidr: 10.${Math.floor(i / 250)}.${i % 250}.0/24, action: allow }`,
    );
  lines.push('ip_restrictions:');
  for (let i = 0; i < 200; i++)
    lines.push(`  only-${i}:`, '    type: api', '    enforced: false', `    ip_policies: [net-${i}]`);
  return `${lines.join('\n')}\n`;
}

const slow = 180_000;

describe.skipIf(noChromium !== undefined)(
  'the markdown plan’s mermaid graphs in Chromium',
  { timeout: slow },
  () => {
    let browser: Browser;
    let mermaid: { server: Server; url: string };
    let account: CliAccount;
    beforeAll(async () => {
      [browser, mermaid] = await Promise.all([launchChromium(), serveMermaid()]);
    }, slow);
    afterAll(async () => {
      await browser?.close();
      mermaid?.server.close();
    });
    beforeEach(async () => {
      account = await startCliAccount();
      cpSync(examplesDir, join(account.dir, 'examples'), { recursive: true });
    });
    afterEach(async () => {
      await account.close();
    });

    function edit(file: string, from: string | RegExp, to: string): void {
      const path = join(account.dir, 'examples', file);
      const text = readFileSync(path, 'utf8');
      const changed = text.replace(from, to);
      expect(changed, `${file}: ${String(from)}`).not.toBe(text);
      writeFileSync(path, changed);
    }

    async function markdownPlan(path: string): Promise<string> {
      const run = await account.acctsync(['plan', path, '--output', 'markdown']);
      expect(run.code, run.stderr).toBe(0);
      return run.stdout;
    }

    async function syncExamples(): Promise<void> {
      const synced = await account.acctsync(['sync', 'examples/account']);
      expect(synced.code, synced.stderr).toBe(0);
    }

    /** Renders each mermaid block of `markdown` in a fresh page; returns the SVGs' sizes. */
    async function render(markdown: string, name: string): Promise<number[]> {
      expect(markdown.length).toBeLessThanOrEqual(limits.commentChars);
      const blocks = mermaidBlocks(markdown);
      expect(blocks.length, 'a ```mermaid block in the markdown plan').toBeGreaterThan(0);
      const tab: Page = await browser.newPage();
      const watch: PageWatch = watchPage(tab);
      await tab.goto(`${mermaid.url}/`);
      const sizes: number[] = [];
      for (const [i, block] of blocks.entries()) {
        expect(block.length).toBeLessThanOrEqual(limits.diagramChars);
        // Throws, failing the test with mermaid's message, on a block that does not parse or is over a limit.
        const svg = await tab.evaluate(
          async ([text, id]) => {
            const m = (globalThis as unknown as { mermaid: MermaidApi }).mermaid;
            await m.parse(text);
            const { svg } = await m.render(id, text);
            const out = (
              globalThis as unknown as { document: { getElementById(id: string): { innerHTML: string } } }
            ).document.getElementById('out');
            out.innerHTML += svg;
            return svg;
          },
          [block, `graph-${i}`] as const,
        );
        expect(svg).toMatch(/^<svg\b/);
        expect(svg).not.toMatch(/Syntax error/i);
        sizes.push(svg.length);
      }
      await screenshot(tab, 'mermaid', name);
      expect(watch.errors).toEqual([]);
      expect(watch.requests.every((url) => url.startsWith(`${mermaid.url}/`))).toBe(true);
      await tab.close();
      return sizes;
    }

    it('renders the graph of a first sync of the example account', async () => {
      await render(await markdownPlan('examples/account'), 'create');
    });

    it('renders the graphs of an update, a rename and a delete of the example account', async () => {
      await syncExamples();
      edit('account/edges.yaml', 'num_buckets: 10', 'num_buckets: 20');
      edit('account/backends.yaml', '{ web: 95, web-canary: 5 }', '{ web: 100 }');
      const update = await markdownPlan('examples/account');
      expect(update).toMatch(/, [1-9]\d* to update,/);
      await render(update, 'update');
      await syncExamples();

      // The domain is unique at the service: the entry is renamed, its live object kept.
      edit(
        'account/domains.yaml',
        '  www:\n    description: Web site',
        '  website:\n    description: Web site',
      );
      const rename = await markdownPlan('examples/account');
      expect(rename).toMatch(/, 1 to rename;/);
      await render(rename, 'rename');
      await syncExamples();

      edit('account/edges.yaml', /\nhttps_edges:[\s\S]*$/, '\n');
      const remove = await markdownPlan('examples/account');
      expect(remove).toMatch(/, [1-9]\d* to delete\b/);
      await render(remove, 'delete');
    });

    it('renders the graph of a first sync of 600 objects, within the limits', async () => {
      await account.write('large/network.yaml', sixHundredObjects());
      const markdown = await markdownPlan('large');
      expect(markdown).toMatch(/600 to create/);
      await render(markdown, 'first-sync-600');
    });
  },
);

/** What the test calls of mermaid's API in the page. */
interface MermaidApi {
  parse(text: string): Promise<unknown>;
  render(id: string, text: string): Promise<{ svg: string }>;
}
