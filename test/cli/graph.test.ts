/**
 * `acctsync graph` as a user runs it (docs/cli.md): the built CLI on the example account, offline
 * for the desired state and against the emulator over HTTP with `--plan`. Both formats are read
 * back line by line (test/support/diagrams.ts) and agree; the DOT is also laid out by Graphviz's
 * `dot` where it is installed.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { examplesDir, runCli } from '../support/cli.js';
import { startCliAccount } from '../safety/support.js';
import { edgeNames, keysOf, parseDot, parseMermaid } from '../support/diagrams.js';

/** A checkout holding the example account and the files it reads, and no account to reach. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'acctsync-graph-'));
  await mkdir(join(dir, '.git'));
  for (const sub of ['account', 'pki', 'secrets', 'saml'])
    await cp(join(examplesDir, sub), join(dir, sub), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const graph = (...args: string[]) => runCli(['graph', 'account/', ...args], { cwd: dir });

/** Some of the example's references, as `referenced -> referrer`. */
const exampleEdges = [
  'backends/web -> backends/web-split',
  'backends/web-canary -> backends/web-split',
  'backends/web-split -> backends/web-main',
  'backends/maintenance -> backends/web-main',
  'https_edges/web -> https_edges/web/routes/path_prefix:/admin',
  'ip_policies/office -> https_edges/web/routes/path_prefix:/admin',
  'tls_certificates/api-cert -> reserved_domains/api',
  'event_destinations/audit-log -> event_subscriptions/policy-changes',
];

describe('the desired state, offline', () => {
  it('--format dot: every object once, its references as edges, a digraph Graphviz lays out', async () => {
    const run = await graph('--format', 'dot');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('embedded emulator');
    expect(existsSync(join(dir, '.acctsync'))).toBe(false);
    const drawing = parseDot(run.stdout);
    expect(drawing.nodes.size).toBe(31);
    expect(new Set(keysOf(drawing).values()).size).toBe(31);
    expect(node(drawing, 'tls_edges/db')).toBe('tls_edges/db\nTLS edge');
    for (const edge of exampleEdges) expect(edgeNames(drawing)).toContain(edge);
    await layOut(run.stdout);
  });

  it('--format mermaid (the default) draws the same graph', async () => {
    const [mermaid, dot] = await Promise.all([graph(), graph('--format', 'dot')]);
    expect(mermaid.code, mermaid.stderr).toBe(0);
    const drawing = parseMermaid(mermaid.stdout);
    expect(drawing.classes).toEqual(['object']);
    expect(edgeNames(drawing)).toEqual(edgeNames(parseDot(dot.stdout)));
    expect([...keysOf(drawing).values()]).toEqual([...keysOf(parseDot(dot.stdout)).values()]);
  });

  it('--kind and --key keep what they name and, muted, the objects next to it', async () => {
    const run = await graph('--kind', 'weighted_backends', '--key', 'ip_policies/office');
    expect(run.code, run.stderr).toBe(0);
    const drawing = parseMermaid(run.stdout);
    const styles = Object.fromEntries(
      [...drawing.nodes.values()].map((n) => [n.label.split('\n')[0] ?? '', n.style]),
    );
    expect(styles).toEqual({
      'backends/web': 'nearby',
      'backends/web-canary': 'nearby',
      'backends/web-split': 'object',
      'backends/web-main': 'nearby',
      'ip_policies/office': 'object',
      'ip_policies/office/rules/203.0.113.0/24': 'object',
      'ip_policies/office/rules/2001:db8:1234::/48': 'object',
      'ip_restrictions/dashboard': 'nearby',
      'ip_restrictions/api': 'nearby',
      'tls_edges/db': 'nearby',
      'https_edges/web/routes/path_prefix:/admin': 'nearby',
    });
  });

  it('refuses an unknown format, kind or key with a suggestion and no output', async () => {
    const cases = [
      [['--format', 'svg'], 'error: --format svg is not a graph format: use mermaid or dot'],
      [['--kind', 'backend'], 'error: --kind backend is not a kind\ndid you mean backends?'],
      [
        ['--key', 'backends/wbe'],
        'error: --key backends/wbe: no object of the config has this key\ndid you mean backends/web?',
      ],
    ] as const;
    for (const [args, message] of cases) {
      const run = await graph(...args);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(message);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('keeps a hostile route match inside its label in both formats', async () => {
    const hostile = `/a"]; n0 --> n1 %% \`\`\` <b>#1;&amp;{x}[y]|z\\N\``;
    const config = [
      'version: 1',
      'scope: h',
      'backends:',
      '  web: { tunnel_group: { labels: { app: web } } }',
      'https_edges:',
      '  web:',
      "    hostports: ['www.example.com:443']",
      '    routes:',
      `      - { match_type: path_prefix, match: '${hostile}', backend: { backend: web } }`,
      '',
    ].join('\n');
    await writeFile(join(dir, 'hostile.yaml'), config);
    const key = `https_edges/web/routes/path_prefix:${hostile}`;
    const [mermaid, dot] = await Promise.all([
      runCli(['graph', 'hostile.yaml'], { cwd: dir }),
      runCli(['graph', 'hostile.yaml', '--format', 'dot'], { cwd: dir }),
    ]);
    expect(mermaid.code, mermaid.stderr).toBe(0);
    expect(dot.code, dot.stderr).toBe(0);
    expect(mermaid.stdout).not.toMatch(/<b>|```/);
    for (const drawing of [parseMermaid(mermaid.stdout), parseDot(dot.stdout)]) {
      expect(drawing.nodes.size).toBe(3);
      expect(edgeNames(drawing)).toContain(`backends/web -> ${key}`);
    }
    await layOut(dot.stdout);
  });
});

it('--plan draws the change against the account, like the markdown plan', async () => {
  await using account = await startCliAccount();
  for (const sub of ['account', 'pki', 'secrets', 'saml'])
    await cp(join(examplesDir, sub), join(account.dir, sub), { recursive: true });
  const synced = await account.acctsync(['sync', 'account/', '--yes']);
  expect(synced.code, synced.stderr).toBe(0);
  const edges = join(account.dir, 'account', 'edges.yaml');
  await writeFile(edges, (await readFile(edges, 'utf8')).replace('match: /partners', 'match: /partner'));

  const [mermaid, dot] = await Promise.all([
    account.acctsync(['graph', 'account/', '--plan']),
    account.acctsync(['graph', 'account/', '--plan', '--format', 'dot']),
  ]);
  expect(mermaid.code, mermaid.stderr).toBe(0);
  expect(dot.code, dot.stderr).toBe(0);
  const drawing = parseMermaid(mermaid.stdout);
  // A route's match is its name: a new one is a new route (docs/config.md), the old one goes.
  const route = 'https_edges/web/routes/path_prefix:/partner';
  const styles = Object.fromEntries(
    [...drawing.nodes.values()].map((n) => [n.label.split('\n')[0] ?? '', n.style]),
  );
  expect(styles).toEqual({
    [`+ ${route}`]: 'create',
    [`- ${route}s`]: 'delete',
    'https_edges/web': 'context',
    'backends/web': 'context',
  });
  expect(edgeNames(drawing).sort()).toEqual([`backends/web -> + ${route}`, `https_edges/web -> + ${route}`]);
  expect(drawing.edges.every((e) => e.dotted)).toBe(true);
  const dotDrawing = parseDot(dot.stdout);
  expect(edgeNames(dotDrawing)).toEqual(edgeNames(drawing));
  expect([...dotDrawing.nodes.values()].map((n) => n.shape)).toEqual(['box', 'hexagon', 'box', 'box']);

  const [gone, unchanged] = await Promise.all([
    account.acctsync(['graph', 'account/', '--plan', '--key', `${route}s`]),
    account.acctsync(['graph', 'account/', '--plan', '--key', 'backends/maintenance']),
  ]);
  expect(gone.code, gone.stderr).toBe(0);
  expect(edgeNames(parseMermaid(gone.stdout))).toEqual([]);
  expect([...keysOf(parseMermaid(gone.stdout)).values()]).toEqual([`- ${route}s`]);
  expect(unchanged.code).toBe(1);
  expect(unchanged.stderr).toContain(
    'error: --key backends/maintenance: the plan changes no object with this key',
  );
});

function node(drawing: ReturnType<typeof parseDot>, first: string): string | undefined {
  return [...drawing.nodes.values()].find((n) => n.label.split('\n')[0] === first)?.label;
}

/**
 * Graphviz's `dot` reads the graph and draws it, where it is installed (Debian's graphviz; not a
 * dependency of acctsync): the parse above holds every line to the grammar either way.
 */
async function layOut(text: string): Promise<void> {
  const dotPath = ['/usr/bin/dot', '/usr/local/bin/dot'].find((p) => existsSync(p));
  if (dotPath === undefined) return;
  const child = promisify(execFile)(dotPath, ['-Tsvg'], { maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin?.end(text);
  const { stdout, stderr } = await child;
  expect(stderr).toBe('');
  expect(stdout).toContain('<svg');
}
