/** The config's git commit on /status, read from what git itself wrote. */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { gitCommitOf } from '../../src/watch/git-revision.js';

const run = promisify(execFile);

describe('gitCommitOf', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function repository(): Promise<{ root: string; git: (...args: string[]) => Promise<string> }> {
    const root = await mkdtemp(join(tmpdir(), 'acctsync-git-'));
    dirs.push(root);
    const git = async (...args: string[]): Promise<string> =>
      (
        await run('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root })
      ).stdout.trim();
    await git('init', '-q', '-b', 'main', 'repo');
    await mkdir(join(root, 'repo', 'account'));
    await writeFile(join(root, 'repo', 'account', 'policies.yaml'), 'version: 1\n');
    await git('-C', 'repo', 'add', '.');
    await git('-C', 'repo', 'commit', '-qm', 'one');
    return { root, git };
  }

  it('reads HEAD of the work tree holding the config, from loose and packed refs', async () => {
    const { root, git } = await repository();
    const head = await git('-C', 'repo', 'rev-parse', 'HEAD');
    expect(await gitCommitOf(join(root, 'repo', 'account'))).toBe(head);
    await git('-C', 'repo', 'pack-refs', '--all');
    expect(await gitCommitOf(join(root, 'repo', 'account', 'policies.yaml'))).toBe(head);
  });

  it("reads a linked work tree's detached HEAD, as git-sync checks out", async () => {
    const { root, git } = await repository();
    await writeFile(join(root, 'repo', 'account', 'policies.yaml'), 'version: 1\nscope: two\n');
    await git('-C', 'repo', 'commit', '-qam', 'two');
    const first = await git('-C', 'repo', 'rev-parse', 'HEAD~1');
    await mkdir(join(root, 'worktrees'));
    await git('-C', 'repo', 'worktree', 'add', '-q', '--detach', join(root, 'worktrees', 'one'), first);
    expect(await gitCommitOf(join(root, 'worktrees', 'one', 'account'))).toBe(first);
    // Reached through a symlink, as git-sync's `current`, with the work tree's relative `gitdir`.
    await writeFile(join(root, 'worktrees', 'one', '.git'), `gitdir: ../../repo/.git/worktrees/one\n`);
    await symlink(join('worktrees', 'one'), join(root, 'current'));
    expect(await gitCommitOf(join(root, 'current', 'account'))).toBe(first);
  });

  it('is undefined outside a git work tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'acctsync-nogit-'));
    dirs.push(dir);
    expect(await gitCommitOf(dir)).toBeUndefined();
  });
});
