/**
 * The README's and docs/*.md's command blocks stay true: each block runs, in document order, with
 * bash (`set -euo pipefail`) and must exit 0 without printing an error. A block that cannot run
 * here carries `<!-- not-run: REASON -->`, or `<!-- run-by: TEST -->` when another test runs it
 * (test/docs/command-blocks.ts); both are listed below, each checked for its reason or its test.
 *
 * Each file runs in a work tree of its own, a stand-in for a clone of this repository after
 * `npm ci`: a git work tree holding a copy of `examples/`, and `config/` a copy of
 * `examples/environments/` (the environments config the docs call `config/`). `acctsync`, and
 * `npx acctsync` / `npx --no-install acctsync` (the local install of a clone), run the built CLI;
 * `npm ci` and `npm run build` are taken as done (the suite runs in the clone it installed and
 * built), and any other npm command
 * fails. The README runs as on a developer's machine with no variables set: the embedded emulator.
 * docs/ run against an account (SVC_API_URL/SVC_API_KEY) holding objects made by hand, none managed
 * yet, and production's account (PRODUCTION_SVC_*) synced from config/.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliShim, examplesDir, runBash, runCli } from '../support/cli.js';
import { apiEnv, startAccount, type TestAccount } from '../support/account.js';
import { commandBlocks, commandsOf, documentedFiles, type CommandBlock } from './command-blocks.js';

const blocks = documentedFiles().flatMap((file) => commandBlocks(file));
const where = (b: CommandBlock): string => `${b.file}:${b.line}`;
const runHere = blocks.filter((b) => b.runBy === undefined && b.notRun === undefined);
const files = [...new Set(runHere.map((b) => b.file))];

const shims: Record<string, string> = {
  acctsync: cliShim,
  npx: [
    '#!/bin/sh',
    '[ "$1" = "--no-install" ] && shift',
    '[ "$1" = acctsync ] || { echo "npx $*: only acctsync is installed here" >&2; exit 127; }',
    'shift',
    'exec acctsync "$@"',
    '',
  ].join('\n'),
  npm: [
    '#!/bin/sh',
    '[ "$*" = ci ] && exit 0',
    '[ "$*" = "run build" ] && exit 0',
    'echo "npm $*: not run by the doc test; mark the block <!-- not-run: why -->" >&2',
    'exit 127',
    '',
  ].join('\n'),
};

interface WorkTree {
  readonly dir: string;
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Objects made by hand in the account: nothing manages them yet. */
async function seedByHand(account: TestAccount): Promise<void> {
  const policy = await account.client.post<{ id: string }>('/ip_policies', {
    description: 'Office networks',
  });
  await account.client.post('/ip_policy_rules', {
    ip_policy_id: policy.body.id,
    cidr: '203.0.113.0/24',
    action: 'allow',
    description: 'HQ',
  });
  await account.client.post('/reserved_domains', { domain: 'www.example.com', description: 'Web site' });
}

async function workTree(file: string): Promise<WorkTree> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-doc-commands-'));
  await mkdir(join(dir, '.git'));
  await mkdir(join(dir, 'bin'));
  for (const [name, text] of Object.entries(shims))
    await writeFile(join(dir, 'bin', name), text, { mode: 0o755 });
  await cp(examplesDir, join(dir, 'examples'), { recursive: true });
  await cp(join(examplesDir, 'environments'), join(dir, 'config'), { recursive: true });
  const path = { PATH: `${join(dir, 'bin')}:${process.env.PATH ?? ''}` };
  if (file === 'README.md') {
    return { dir, env: path, close: () => rm(dir, { recursive: true, force: true }) };
  }
  const account = await startAccount();
  const production = await startAccount();
  const close = async (): Promise<void> => {
    await account.close();
    await production.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await seedByHand(account);
    const env = { ...apiEnv(production, 'PRODUCTION_') };
    const synced = await runCli(['sync', 'config/', '--env', 'production'], { cwd: dir, env });
    expect(synced.code, synced.stderr).toBe(0);
    return { dir, env: { ...path, ...account.env, ...env }, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function run(block: CommandBlock, tree: WorkTree): Promise<void> {
  const result = await runBash(commandsOf(block), {
    cwd: join(tree.dir, block.runIn ?? ''),
    env: tree.env,
    timeoutMs: 90_000,
  });
  const said = `${where(block)}:\n${block.body}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
  expect(result.code, said).toBe(0);
  expect(result.stderr, said).not.toMatch(/\berror\b/i);
}

describe('the command blocks of README.md and docs/*.md', () => {
  it('are found, and each is run here, run by another test or marked with why not', () => {
    expect(blocks.length).toBeGreaterThan(30);
    expect(runHere.length).toBeGreaterThan(3);
    for (const b of blocks) {
      const both = b.runBy !== undefined && b.notRun !== undefined;
      expect(both, `${where(b)}: run by another test or not run, not both`).toBe(false);
    }
  });

  it.each(blocks.filter((b) => b.notRun !== undefined).map((b) => [where(b), b.notRun ?? '']))(
    '%s is not run: %s',
    (_where, reason) => {
      // A reason a reader can act on: what it needs or what it shows, in words.
      expect(reason.split(/\s+/).length).toBeGreaterThanOrEqual(3);
    },
  );

  it.each(blocks.filter((b) => b.runBy !== undefined).map((b) => [where(b), b.runBy ?? '', b.file]))(
    '%s is run by %s',
    (_where, test, file) => {
      expect(existsSync(test), `${test} exists`).toBe(true);
      expect(readFileSync(test, 'utf8'), `${test} reads ${file}`).toContain(file);
    },
  );

  it.each(files)('%s: every other block runs', { timeout: 300_000 }, async (file) => {
    const tree = await workTree(file);
    try {
      for (const block of runHere.filter((b) => b.file === file)) await run(block, tree);
    } finally {
      await tree.close();
    }
  });

  it('the README quick start leaves the empty plan it promises', { timeout: 120_000 }, async () => {
    const tree = await workTree('README.md');
    try {
      const quickStart = runHere.find(
        (b) => b.file === 'README.md' && /sync examples\/account\//.test(b.body),
      );
      expect(quickStart, 'the quick start block runs here').toBeDefined();
      if (quickStart !== undefined) await run(quickStart, tree);
      const plan = await runCli(['plan', 'examples/account/', '--detailed-exitcode'], { cwd: tree.dir });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/No changes\. \d+ objects up to date\./);
      expect(await readFile(join(tree.dir, '.acctsync/embedded.json'), 'utf8')).toContain('ip_policies');
    } finally {
      await tree.close();
    }
  });
});
