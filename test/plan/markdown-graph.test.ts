/**
 * The markdown plan's change graph (docs/plan-output.md "The change graph"), as a reviewer meets it
 * in the pull-request comment: the built CLI plans the example account (examples/account) against
 * the emulator over HTTP, and the ```mermaid block is read back line by line. Each change shows
 * as its action's shape and class, edges follow the plan's dependsOn in the applier's order, the
 * unchanged objects referenced are muted, and the whole stays within GitHub's limits, drawn by
 * kind at 600 objects. Keys from the account and the config cannot break out of their labels.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markdownLimit, planMermaid, renderMarkdown, type Plan } from '../../src/plan-format/index.js';
import { formatMetadata, parseMetadata } from '../../src/plan/index.js';
import { examplesDir } from '../support/cli.js';
import { startCliAccount, type CliAccount } from '../safety/support.js';
import { edgeNames, keysOf, mermaidBlocks, parseMermaid, type Drawing } from '../support/diagrams.js';

/** GitHub's mermaid: at most this many characters and edges a diagram. */
const mermaidChars = 50_000;
const mermaidEdges = 500;

let account: CliAccount;
beforeEach(async () => {
  account = await startCliAccount();
  for (const dir of ['account', 'pki', 'secrets', 'saml'])
    await cp(join(examplesDir, dir), join(account.dir, dir), { recursive: true });
});
afterEach(async () => {
  await account.close();
});

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(account.dir, 'account', file);
  const before = await readFile(path, 'utf8');
  const after = change(before);
  expect(after, `the edit of ${file} changed nothing`).not.toBe(before);
  await account.write(join('account', file), after);
}

async function sync(): Promise<void> {
  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
}

async function markdown(...extra: string[]): Promise<string> {
  const planned = await account.acctsync(['plan', 'account/', '--output', 'markdown', ...extra]);
  expect(planned.code, planned.stderr).toBe(0);
  return planned.stdout;
}

async function jsonPlan(): Promise<Plan> {
  const planned = await account.acctsync(['plan', 'account/', '--output', 'json']);
  expect(planned.code, planned.stderr).toBe(0);
  return JSON.parse(planned.stdout) as Plan;
}

/** The comment's one graph, checked against GitHub's limits. */
function graphOf(md: string): Drawing {
  expect(md.length).toBeLessThanOrEqual(markdownLimit);
  const blocks = mermaidBlocks(md);
  expect(blocks).toHaveLength(1);
  const text = blocks[0] ?? '';
  expect(text.length).toBeLessThanOrEqual(mermaidChars);
  const drawing = parseMermaid(text);
  expect(drawing.edges.length).toBeLessThanOrEqual(mermaidEdges);
  return drawing;
}

/** The node whose label's first line is `first`. */
function node(drawing: Drawing, first: string) {
  const id = [...keysOf(drawing)].find(([, k]) => k === first)?.[0];
  expect(id, `no node ${first} in ${[...keysOf(drawing).values()].join(', ')}`).toBeDefined();
  return drawing.nodes.get(id ?? '');
}

it("draws a first sync's creates, one node per object and every dependsOn edge in the applier's order", async () => {
  const plan = await jsonPlan();
  const md = await markdown();
  const drawing = graphOf(md);
  expect(md).toContain('#### Change graph');
  expect(drawing.nodes.size).toBe(plan.operations.length);
  for (const n of drawing.nodes.values()) {
    expect(n.shape).toBe('([');
    expect(n.style).toBe('create');
  }
  const expected = plan.operations.flatMap((op) =>
    op.dependsOn.map((d) => `+ ${d.slice('create '.length)} -> + ${op.key}`),
  );
  expect(edgeNames(drawing).sort()).toEqual(expected.sort());
  expect(edgeNames(drawing)).toContain('+ backends/web-split -> + backends/web-main');
  // In the applier's order: an edge's target never runs before the previous edge's.
  const position = new Map(plan.operations.map((op, i) => [`+ ${op.key}`, i]));
  const targets = edgeNames(drawing).map((e) => position.get(e.split(' -> ')[1] ?? '') ?? -1);
  expect(targets).toEqual([...targets].sort((a, b) => a - b));
  expect(node(drawing, '+ tls_edges/db')?.label).toBe('+ tls_edges/db\nTLS edge');
  // What the daemon's status page draws of a plan is what the comment shows.
  expect(planMermaid(plan).text?.trimEnd()).toBe(mermaidBlocks(md)[0]);
});

it('draws an update with the unchanged objects it references muted, and drift in its own class', async () => {
  await sync();
  await edit('edges.yaml', (t) =>
    t.replace(
      'match: /admin\n        backend: { backend: web }',
      'match: /admin\n        backend: { backend: web-main }',
    ),
  );
  const [live] = (
    await account.client.listAll<{ id: string; description: string }>('/ip_policies', 'ip_policies')
  ).filter((p) => p.description === 'Known bad actors');
  await account.client.patch(`/ip_policies/${live?.id ?? ''}`, { description: 'changed in the dashboard' });

  const drawing = graphOf(await markdown());
  const route = node(drawing, '~ https_edges/web/routes/path_prefix:/admin');
  expect([route?.shape, route?.style]).toEqual(['[', 'update']);
  const drifted = node(drawing, '~ ip_policies/blocklist');
  expect([drifted?.style, drifted?.label]).toEqual([
    'drift',
    '~ ip_policies/blocklist\nIP policy, changed outside acctsync',
  ]);
  for (const key of ['backends/web-main', 'https_edges/web']) {
    expect(node(drawing, key)?.style).toBe('context');
    expect(node(drawing, key)?.label).toMatch(/, unchanged$/);
  }
  expect(drawing.edges.filter((e) => e.dotted)).toHaveLength(2);
  expect(edgeNames(drawing).sort()).toEqual([
    'backends/web-main -> ~ https_edges/web/routes/path_prefix:/admin',
    'https_edges/web -> ~ https_edges/web/routes/path_prefix:/admin',
  ]);
  expect(drawing.nodes.size).toBe(4);
});

it('draws a rename as the old key and the new one', async () => {
  await sync();
  await edit('domains.yaml', (t) => t.replace('  www:\n', '  website:\n'));
  const drawing = graphOf(await markdown());
  const renamed = node(drawing, '~> reserved_domains/www -> website');
  expect([renamed?.shape, renamed?.style]).toEqual(['[/', 'rename']);
  expect(drawing.nodes.size).toBe(1);
});

it('draws deletes, a referrer deleted before what it references', async () => {
  await sync();
  await edit('edges.yaml', (t) => t.replace(/tls_edges:[\s\S]*?(?=https_edges:)/, ''));
  await edit('backends.yaml', (t) =>
    t.replace('  database:\n    tunnel_group:\n      labels: { app: db }\n', ''),
  );
  const drawing = graphOf(await markdown());
  for (const key of ['- tls_edges/db', '- backends/database']) {
    expect([node(drawing, key)?.shape, node(drawing, key)?.style]).toEqual(['{{', 'delete']);
  }
  expect(edgeNames(drawing)).toEqual(['- tls_edges/db -> - backends/database']);
});

it('--no-graph leaves out the graph and nothing else', async () => {
  const withGraph = await markdown();
  const without = await markdown('--no-graph');
  expect(mermaidBlocks(without)).toEqual([]);
  expect(without).not.toContain('Change graph');
  const section = /#### Change graph\n[\s\S]*?dashed: a reference no operation waits for\._\n\n/.exec(
    withGraph,
  )?.[0];
  expect(section).toBeDefined();
  expect(withGraph.replace(section ?? '', '')).toBe(without);
  const dryRun = await account.acctsync([
    'sync',
    'account/',
    '--dry-run',
    '--output',
    'markdown',
    '--no-graph',
  ]);
  expect(dryRun.code, dryRun.stderr).toBe(0);
  expect(dryRun.stdout).toBe(without);
});

describe('a 600-object first sync', () => {
  /** Enough objects beside the example's for 600 operations, and over 500 dependsOn edges. */
  function many(): string {
    const lines = ['version: 1', 'scope: example', 'backends:'];
    for (let i = 0; i < 190; i++) lines.push(`  group-${i}: { tunnel_group: { labels: { app: app-${i} } } }`);
    for (let i = 0; i < 189; i++)
      lines.push(`  split-${i}: { weighted: { backends: { group-${i}: 50, group-${i + 1}: 50 } } }`);
    lines.push('ip_policies:');
    for (let i = 0; i < 95; i++)
      lines.push(`  net-${i}: { rules: [{ cidr: 10.${i}.0.0/16, action: allow }] }`);
    return `${lines.join('\n')}\n`;
  }

  it('is drawn by kind and action within the limits, every object counted', async () => {
    await account.write('account/many.yaml', many());
    const plan = await jsonPlan();
    expect(plan.operations).toHaveLength(600);
    const dependsOn = plan.operations.reduce((n, op) => n + op.dependsOn.length, 0);
    expect(dependsOn).toBeGreaterThan(mermaidEdges);

    const md = await markdown();
    const drawing = graphOf(md);
    // The text keeps most of the comment: the graph takes at most 40% of it.
    expect(mermaidBlocks(md)[0]?.length).toBeLessThanOrEqual(markdownLimit * 0.4);
    expect(md).toContain(
      `_By kind and action: one node per object (600 objects, ${dependsOn} edges) would pass`,
    );
    const counts = [...drawing.nodes.values()].map((n) => {
      const m = /^\+ (\d+) /.exec(n.label);
      expect(m, n.label).not.toBeNull();
      return Number(m?.[1]);
    });
    expect(counts.reduce((a, b) => a + b, 0)).toBe(600);
    expect(node(drawing, '+ 190 weighted backends')?.style).toBe('create');
    expect(edgeNames(drawing)).toContain('+ 193 tunnel group backends -> + 190 weighted backends');
    const weighted = drawing.edges.find((e) => drawing.nodes.get(e.to)?.label === '+ 190 weighted backends');
    expect(weighted?.count).toBe(189 * 2 + 2);
    expect(md).toContain(
      '**Plan: 600 to create, 0 to update, 0 to replace, 0 to delete, 0 to adopt; 0 unchanged.**',
    );
  });

  it('is left out with a note when even by kind it would not fit its share (many environments in one comment)', async () => {
    await account.write('account/many.yaml', many());
    const plan = await jsonPlan();
    // About the share one of thirty environments gets in a `plan --all-envs` comment.
    const share = 2_000;
    const md = renderMarkdown(plan, share);
    expect(md.length).toBeLessThanOrEqual(share);
    expect(mermaidBlocks(md)).toEqual([]);
    expect(md).toContain(
      '_Left out: the graph (600 objects, 508 edges) does not fit in 800 characters and 500 edges even by kind. Run `acctsync graph --plan` for the whole graph._',
    );
    expect(md).toContain('_Truncated: ');
  });
});

it("escapes a key a dashboard user wrote into an object's marker, and a route match from the config", async () => {
  const hostileMatch = '/a"]; n0 --> n1 %% ``` <b>#1;&amp;{x}[y]|z`';
  await edit('edges.yaml', (t) => t.replace('match: /partners', `match: '${hostileMatch}'`));
  await sync();
  const [addr] = await account.client.listAll<{ id: string; metadata: string }>(
    '/reserved_addrs',
    'reserved_addrs',
  );
  const parsed = parseMetadata(addr?.metadata);
  const hostileKey = 'reserved_addrs/x"]:::create\n```\n<img src=x onerror=alert(1)>#lt;`';
  if (parsed.marker === undefined) throw new Error('the reserved address has no marker');
  await account.client.patch(`/reserved_addrs/${addr?.id ?? ''}`, {
    metadata: formatMetadata(parsed.user, { ...parsed.marker, key: hostileKey }),
  });
  await edit('edges.yaml', (t) =>
    t.replace(
      `match: '${hostileMatch}'\n        backend: { backend: web }`,
      `match: '${hostileMatch}'\n        backend: { backend: web-main }`,
    ),
  );

  const md = await markdown();
  const drawing = graphOf(md);
  expect(mermaidBlocks(md)[0]).not.toMatch(/<img|```/);
  // The key is shown as it is, its line break as `\n` (made inert), once decoded.
  expect(node(drawing, `- ${hostileKey.replace(/\n/g, '\\n')}`)?.style).toBe('delete');
  expect(node(drawing, `~ https_edges/web/routes/path_prefix:${hostileMatch}`)?.style).toBe('update');
});
