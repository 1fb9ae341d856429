/**
 * Config and keys as a pod sees them, the layouts built by hand as the kubelet and git-sync build
 * them: a ConfigMap volume (every key a symlink into `..data`, itself a link to a timestamped
 * directory swapped atomically, the old one then deleted), git-sync's worktrees and the link it
 * flips, and a Secret holding the API key, rotated the same way. `validate` loads them, `watch`
 * with a one-hour interval applies each update soon after the swap (waited for, never timed), logs
 * no error as the old revision disappears, and uses a rotated key without a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startAccount, type TestAccount } from '../support/account.js';
import { testClient } from '../support/client.js';
import { waitFor, type LogEntry } from './daemon-harness.js';

const mainJs = new URL('../../dist/cli/main.js', import.meta.url).pathname;

const policies = (...descriptions: string[]): string =>
  [
    'version: 1',
    'scope: k8s',
    'ip_policies:',
    ...descriptions.map((d, i) => `  p${i}: { description: ${d} }`),
  ].join('\n') + '\n';

let revision = 0;

/**
 * A ConfigMap or Secret volume at `dir` holding `files`, written as the kubelet's atomic writer
 * does: a new timestamped directory, `..data` pointed at it by a rename, a link per key, the old
 * directory removed.
 */
async function projectVolume(dir: string, files: Readonly<Record<string, string>>): Promise<void> {
  await mkdir(dir, { recursive: true });
  const stamp = `..2026_11_25_10_00_00.${++revision}`;
  await mkdir(join(dir, stamp));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, stamp, name), text);
  const previous = await readlink(join(dir, '..data')).catch(() => undefined);
  await symlink(stamp, join(dir, '..data_tmp'));
  await rename(join(dir, '..data_tmp'), join(dir, '..data'));
  for (const name of Object.keys(files)) {
    await symlink(join('..data', name), join(dir, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
  }
  if (previous !== undefined) await rm(join(dir, previous), { recursive: true, force: true });
}

/**
 * git-sync's layout under `root`: each revision a worktree in `.worktrees/<hash>` (with the `.git`
 * file of a worktree), `current` a link flipped to the new one by a rename, the old one removed.
 */
async function syncWorktree(root: string, files: Readonly<Record<string, string>>): Promise<void> {
  const hash = `rev${++revision}`;
  const tree = join(root, '.worktrees', hash);
  await mkdir(join(tree, 'account'), { recursive: true });
  await writeFile(join(tree, '.git'), `gitdir: ${join(root, '.git', 'worktrees', hash)}\n`);
  for (const [name, text] of Object.entries(files)) await writeFile(join(tree, 'account', name), text);
  const previous = await readlink(join(root, 'current')).catch(() => undefined);
  await symlink(join('.worktrees', hash), join(root, 'current-tmp'));
  await rename(join(root, 'current-tmp'), join(root, 'current'));
  if (previous !== undefined) await rm(join(root, previous), { recursive: true, force: true });
}

interface Daemon {
  readonly logs: LogEntry[];
  readonly url: () => string | undefined;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

function startWatch(
  account: TestAccount,
  cwd: string,
  args: readonly string[],
  env: Record<string, string>,
): Daemon {
  const child = spawn(
    process.execPath,
    [mainJs, 'watch', ...args, '--api-url', account.url, '--listen', '127.0.0.1:0', '--interval', '1h'],
    { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const logs: LogEntry[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      logs.push(JSON.parse(line) as LogEntry);
    } catch {
      logs.push({ msg: `(not JSON) ${line}` });
    }
  });
  createInterface({ input: child.stderr }).on('line', (line) => logs.push({ msg: `(stderr) ${line}` }));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    logs,
    child,
    url: () => logs.find((e) => typeof e.url === 'string')?.url as string | undefined,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

const errorsLogged = (logs: readonly LogEntry[]): LogEntry[] =>
  logs.filter((e) => (typeof e.level === 'number' && e.level >= 50) || String(e.msg).startsWith('(stderr)'));

async function liveDescriptions(account: TestAccount): Promise<string[]> {
  const live = await account.client.listAll<{ description: string }>('/ip_policies', 'ip_policies');
  return live.map((p) => p.description).sort();
}

/** Waits until the account holds exactly `expected`, the daemon's log shown when it does not. */
async function waitForPolicies(account: TestAccount, daemon: Daemon, expected: string[]): Promise<void> {
  await waitFor(
    `the account to hold ${expected.join(', ')} (log: ${JSON.stringify(daemon.logs.slice(-8))})`,
    async () => JSON.stringify(await liveDescriptions(account)) === JSON.stringify([...expected].sort()),
    30_000,
  );
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-k8s-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function account(): Promise<TestAccount> {
  const a = await startAccount();
  cleanups.push(() => a.close());
  return a;
}

function watch(
  a: TestAccount,
  cwd: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Daemon {
  const daemon = startWatch(a, cwd, args, { SVC_API_KEY: a.token, ...env });
  cleanups.push(() => daemon.stop());
  return daemon;
}

describe('a ConfigMap volume', () => {
  it('loads each file once through its links, ..data and the timestamped directory skipped', async () => {
    const dir = await scratch();
    await projectVolume(join(dir, 'config'), {
      'acctsync.yaml': policies('one'),
      'more.yaml': policies('two').replace('p0', 'q0'),
    });
    const run = await runCli(['validate', 'config'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('valid: 2 objects in 2 files\n');
  });

  it('watch --interval 1h applies an update soon after the ..data swap, with no error as the old revision is deleted', async () => {
    const dir = await scratch();
    const a = await account();
    await projectVolume(join(dir, 'config'), { 'acctsync.yaml': policies('first') });
    const daemon = watch(a, dir, ['config']);
    await waitForPolicies(a, daemon, ['first']);

    await projectVolume(join(dir, 'config'), { 'acctsync.yaml': policies('second', 'third') });
    await waitForPolicies(a, daemon, ['second', 'third']);
    await projectVolume(join(dir, 'config'), { 'acctsync.yaml': policies('fourth') });
    await waitForPolicies(a, daemon, ['fourth']);
    expect(errorsLogged(daemon.logs)).toEqual([]);
  });
});

describe('git-sync', () => {
  for (const [where, path] of [
    ['through its link', 'git/current'],
    ['below its link', 'git/current/account'],
  ] as const) {
    it(`watch --interval 1h applies a flip to a new worktree, watched ${where}`, async () => {
      const dir = await scratch();
      const a = await account();
      await syncWorktree(join(dir, 'git'), { 'a.yaml': policies('first') });
      expect((await runCli(['validate', path], { cwd: dir })).stdout).toBe('valid: 1 object in 1 file\n');
      const daemon = watch(a, dir, [path]);
      await waitForPolicies(a, daemon, ['first']);

      await syncWorktree(join(dir, 'git'), {
        'a.yaml': policies('second'),
        'b.yaml': policies('third').replace('p0', 'q0'),
      });
      await waitForPolicies(a, daemon, ['second', 'third']);
      await syncWorktree(join(dir, 'git'), { 'a.yaml': policies('fourth') });
      await waitForPolicies(a, daemon, ['fourth']);
      expect(errorsLogged(daemon.logs)).toEqual([]);
    });
  }

  it('a watched directory replaced whole is applied too', async () => {
    const dir = await scratch();
    const a = await account();
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config', 'a.yaml'), policies('first'));
    const daemon = watch(a, dir, ['config']);
    await waitForPolicies(a, daemon, ['first']);

    await mkdir(join(dir, 'config.new'));
    await writeFile(join(dir, 'config.new', 'a.yaml'), policies('second'));
    await rename(join(dir, 'config'), join(dir, 'config.old'));
    await rename(join(dir, 'config.new'), join(dir, 'config'));
    await rm(join(dir, 'config.old'), { recursive: true });
    await waitForPolicies(a, daemon, ['second']);
  });
});

describe('a rotated API key file', () => {
  it('watch reads the Secret again when it is swapped, logs the rotation (not the key), counts it, and keeps working once the old key is revoked', async () => {
    const dir = await scratch();
    const a = await account();
    await projectVolume(join(dir, 'secret'), { 'api-key': `${a.token}\n` });
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config', 'a.yaml'), policies('first'));
    const daemon = watch(a, dir, ['config', '--api-key-file', 'secret/api-key'], { SVC_API_KEY: '' });
    await waitForPolicies(a, daemon, ['first']);

    const created = await a.client.post<{ id: string; token: string }>('/api_keys', {
      description: 'rotated',
    });
    const bootstrap = (await a.client.listAll<{ id: string; description: string }>('/api_keys', 'keys')).find(
      (k) => k.description === 'bootstrap key',
    );
    await projectVolume(join(dir, 'secret'), { 'api-key': `${created.body.token}\n` });
    await waitFor('the rotation to be logged', () =>
      daemon.logs.some((e) => e.msg === 'the API key file holds a new key: using it'),
    );
    // The old key revoked, as a rotation ends: the daemon must go on with the new one.
    const rotated = testClient({ url: a.url, token: created.body.token });
    cleanups.push(() => rotated.close());
    await rotated.delete(`/api_keys/${bootstrap!.id}`);
    await writeFile(join(dir, 'config', 'a.yaml'), policies('second'));
    await waitFor(
      'the change to be applied with the new key',
      async () => {
        const live = await rotated.listAll<{ description: string }>('/ip_policies', 'ip_policies');
        return live.length === 1 && live[0]!.description === 'second';
      },
      30_000,
    );

    const text = JSON.stringify(daemon.logs);
    expect(text).not.toContain(created.body.token);
    expect(text).not.toContain(a.token);
    const metrics = await (await fetch(`${daemon.url()}/metrics`)).text();
    expect(metrics).toMatch(/^acctsync_api_key_rotations_total\{cause="file_changed"\} 1$/m);
    expect(errorsLogged(daemon.logs)).toEqual([]);
  });
});
