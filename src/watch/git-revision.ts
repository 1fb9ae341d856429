/**
 * The commit checked out in the git work tree holding the config, read from the repository's files
 * (`.git/HEAD`, loose and packed refs) rather than by running git: the Docker image has no git, and
 * git-sync's checkouts (a `.git` file pointing into a shared repository, a detached HEAD) are read
 * the same way.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

const sha = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

async function read(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** The git directory of the work tree holding `path`, if any: `.git` itself, or where a `.git` file points. */
async function gitDirOf(path: string): Promise<string | undefined> {
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const info = await stat(dotGit).catch(() => undefined);
    if (info?.isDirectory() === true) return dotGit;
    if (info?.isFile() === true) {
      const pointer = /^gitdir: (.+)$/m.exec((await read(dotGit)) ?? '');
      // Relative to where the work tree really is: git-sync's `current` is a symlink to it.
      return pointer?.[1] === undefined ? undefined : resolve(await realpath(dir), pointer[1]);
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** The commit `ref` names, from the loose ref or `packed-refs`. */
async function resolveRef(commonDir: string, ref: string): Promise<string | undefined> {
  const loose = await read(join(commonDir, ref));
  if (loose !== undefined && sha.test(loose)) return loose;
  for (const line of ((await read(join(commonDir, 'packed-refs'))) ?? '').split('\n')) {
    const [commit, name] = line.split(' ');
    if (name === ref && commit !== undefined && sha.test(commit)) return commit;
  }
  return undefined;
}

/** The commit checked out in the work tree holding `path`; undefined outside one (or unreadable). */
export async function gitCommitOf(path: string): Promise<string | undefined> {
  const gitDir = await gitDirOf(path);
  if (gitDir === undefined) return undefined;
  const head = await read(join(gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (sha.test(head)) return head;
  const ref = /^ref: (.+)$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  // A linked work tree keeps its HEAD apart and shares the refs of the main repository.
  const common = await read(join(gitDir, 'commondir'));
  return (
    (await resolveRef(gitDir, ref)) ??
    (common === undefined ? undefined : resolveRef(resolve(gitDir, common), ref))
  );
}
