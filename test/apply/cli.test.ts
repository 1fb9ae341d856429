/**
 * The commands end to end, in process (the CLI's startup would dominate the suite's time) against
 * an emulator over HTTP: `apply plan.json` refuses a plan the account drifted from and runs one that
 * is current; `sync --output json` is parseable and prints no token.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { commands as table } from '../../src/cli/commands.js';
import { renderError } from '../../src/cli/render-error.js';
import { examplesDir, startHarness, type Harness } from './harness.js';

let h: Harness;
let dir: string;
beforeEach(async () => {
  h = await startHarness();
  dir = await mkdtemp(join(tmpdir(), 'acctsync-cli-'));
  vi.stubEnv('SVC_API_URL', h.emulator.url);
  vi.stubEnv('SVC_API_KEY', h.emulator.token);
  vi.stubEnv('NO_COLOR', '1');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  await h.close();
});

/** Runs a command as main.ts does: exit code, stdout, and stderr with errors rendered at the edge. */
async function acctsync(name: 'plan' | 'sync' | 'apply', ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation(
    (chunk: string | Uint8Array) => ((stdout += String(chunk)), true),
  );
  vi.spyOn(process.stderr, 'write').mockImplementation(
    (chunk: string | Uint8Array) => ((stderr += String(chunk)), true),
  );
  try {
    const entry = table[name];
    if (entry === undefined) throw new Error(`no command ${name}`);
    const { command } = await entry.load();
    const code = await command.run(argv);
    return { code, stdout, stderr };
  } catch (err) {
    const { text, exitCode } = renderError(err);
    if (exitCode === 70) throw err;
    return { code: exitCode, stdout, stderr: `${stderr}${text}\n` };
  } finally {
    vi.restoreAllMocks();
  }
}

it('apply plan.json refuses after drift, saying what changed, and applies a current plan', async () => {
  const config = join(examplesDir, 'account');
  const planFile = join(dir, 'plan.json');
  expect((await acctsync('plan', config, '--out', planFile)).code).toBe(0);
  // Someone adds an object in this scope by hand: the account drifted from the reviewed plan.
  const marker = JSON.stringify({ acctsync: { scope: 'example', key: 'ip_policies/stray' } });
  await h.client.post('/ip_policies', { description: 'by hand', metadata: marker });
  const writesBefore = h.writes().length;
  const refused = await acctsync('apply', planFile);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('error: refusing to apply a stale plan: since it was made');
  expect(refused.stderr).toContain('the live account changed');
  expect(refused.stderr).toMatch(/\+ now also needed: delete ip_policies\/stray#ipp_\w+/);
  expect(h.writes().length).toBe(writesBefore);

  expect((await acctsync('plan', config, '--out', planFile)).code).toBe(0);
  const applied = await acctsync('apply', planFile, '--token-output', join(dir, 'tokens.json'));
  expect(applied.stderr).toMatch(/\[\d+\/\d+\] create ip_policies\/office: done/);
  expect(applied.stdout).toMatch(/Apply complete: \d+ done, 0 failed, 0 not attempted in \d+(\.\d)? s/);
  expect(applied.code).toBe(0);
  expect((await stat(join(dir, 'tokens.json'))).mode & 0o777).toBe(0o600);
  expect((await acctsync('sync', config, '--dry-run', '--detailed-exitcode')).code).toBe(0);
});

it('apply plan.json re-plans with the options the plan was made with (--no-delete)', async () => {
  const config = join(examplesDir, 'account');
  expect((await acctsync('sync', config)).code).toBe(0);
  // An object of this scope that left the config: a plain plan would delete it, --no-delete keeps it.
  const marker = JSON.stringify({ acctsync: { scope: 'example', key: 'ip_policies/retired' } });
  await h.client.post('/ip_policies', { description: 'retired', metadata: marker });
  const planFile = join(dir, 'keep.json');
  expect((await acctsync('plan', config, '--no-delete', '--out', planFile)).code).toBe(0);
  const applied = await acctsync('apply', planFile);
  expect(applied.stderr).not.toContain('stale plan');
  expect(applied.code).toBe(0);
  const policies = await h.client.listAll<{ description: string }>('/ip_policies', 'ip_policies');
  expect(policies.map((p) => p.description)).toContain('retired');
});

it('sync --output json prints the documented result and no token', async () => {
  const tokenFile = join(dir, 't.json');
  const result = await acctsync(
    'sync',
    join(examplesDir, 'account'),
    '--output',
    'json',
    '--token-output',
    tokenFile,
  );
  expect(result.code).toBe(0);
  const doc = JSON.parse(result.stdout) as object;
  expect(doc).toMatchObject({
    formatVersion: 1,
    scope: 'example',
    status: 'succeeded',
    counts: { failed: 0, notAttempted: 0 },
  });
  const tokens = JSON.parse(await readFile(tokenFile, 'utf8')) as Record<string, { token: string }>;
  expect(Object.keys(tokens)).toHaveLength(2);
  for (const { token } of Object.values(tokens)) expect(result.stdout + result.stderr).not.toContain(token);
});
