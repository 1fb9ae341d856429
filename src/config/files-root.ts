/**
 * The config's root: the only part of the disk a config may read, through `{file:}` values and
 * through symlinked config files and directories. A pull request's config runs in CI next to the
 * job's credentials (`actions/checkout` keeps its token in `.git/config`), so what it may name is
 * the repository that holds it and nothing else, unless the operator widens it on purpose.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** The variable naming directories (joined by the path delimiter) added to the root, as `--files-root` does. */
export const filesRootVariable = 'ACCTSYNC_FILES_ROOT';

/** One directory a config may read below, as written and with its symlinks resolved. */
interface RootDirectory {
  readonly lexical: string;
  readonly real: string;
}

/** The directories a config may read below. */
export interface FilesRoot {
  readonly directories: readonly RootDirectory[];
}

/** Why a path is refused, or its real location. */
type RootCheck =
  | { readonly ok: true; readonly real: string }
  | { readonly ok: false; readonly reason: 'outside' | 'git' | 'missing' };

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The work tree holding `dir` (a `.git` directory, or the `.git` file of a worktree), if any. */
function gitWorkTree(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/** The root of one path given on the command line: its git work tree, else its directory. */
function rootOfPath(absolute: string): RootDirectory | undefined {
  const real = realOrUndefined(absolute);
  if (real === undefined) return undefined;
  const directory = isDirectory(real) ? real : dirname(real);
  const tree = gitWorkTree(directory);
  if (tree === undefined) {
    return { lexical: isDirectory(real) ? absolute : dirname(absolute), real: directory };
  }
  // The same number of levels up the path as written, for messages and for paths that do not exist.
  const levels = relative(tree, directory)
    .split(sep)
    .filter((s) => s !== '').length;
  let lexical = isDirectory(real) ? absolute : dirname(absolute);
  for (let i = 0; i < levels; i++) lexical = dirname(lexical);
  return { lexical, real: tree };
}

/**
 * The root of a config given as `paths` (relative to `cwd`), widened by the directories of
 * `ACCTSYNC_FILES_ROOT` in `env` and by `given` (`--files-root`).
 */
export function filesRootOf(
  paths: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  given: readonly string[] = [],
): FilesRoot {
  const widened = [...(env[filesRootVariable] ?? '').split(delimiter), ...given].filter((p) => p !== '');
  const directories: RootDirectory[] = [];
  for (const p of paths) {
    const root = rootOfPath(resolve(cwd, p));
    if (root !== undefined) directories.push(root);
  }
  for (const p of widened) {
    const absolute = resolve(cwd, p);
    directories.push({ lexical: absolute, real: realOrUndefined(absolute) ?? absolute });
  }
  return { directories };
}

function below(path: string, dir: string): string | undefined {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)) ? rel : undefined;
}

function inGitDirectory(rel: string): boolean {
  return rel.split(sep).includes('.git');
}

/**
 * Whether `absolute` (a path as written, resolved) may be read: below a root directory once its
 * symlinks are resolved, and not inside a `.git` directory. A path that does not exist is judged
 * as written, so that the answer for a path outside the root never says whether it exists.
 */
export function checkInRoot(root: FilesRoot, absolute: string): RootCheck {
  const written = root.directories
    .flatMap((d) => [below(absolute, d.lexical), below(absolute, d.real)])
    .filter((r) => r !== undefined);
  if (written.some(inGitDirectory)) return { ok: false, reason: 'git' };
  const real = realOrUndefined(absolute);
  if (real === undefined) return { ok: false, reason: written.length > 0 ? 'missing' : 'outside' };
  return checkRealInRoot(root, real);
}

/** Whether `real`, a path with no symlinks left (an opened file's), is below the root and not in `.git`. */
export function checkRealInRoot(root: FilesRoot, real: string): RootCheck {
  const inside = root.directories.map((d) => below(real, d.real)).filter((r) => r !== undefined);
  if (inside.length === 0) return { ok: false, reason: 'outside' };
  if (inside.some(inGitDirectory)) return { ok: false, reason: 'git' };
  return { ok: true, real };
}

/** The root's directories for a message: as written. */
export function describeRoot(root: FilesRoot): string {
  const names = [...new Set(root.directories.map((d) => d.lexical))];
  return names.length === 0 ? '(none)' : names.join(', ');
}
