/**
 * Sees the swaps file events miss. The kubelet updates a ConfigMap or Secret volume by pointing its
 * `..data` symlink at a new directory and deleting the old one; git-sync flips a link to a new
 * worktree; an operator may replace the watched directory whole. None of these edits a watched file,
 * and inotify keeps watching the old inodes. So where the watched paths lead is looked at directly,
 * twice a second: each path's real location and identity, and the target of each symlink directly
 * in a watched directory (`..data`, `current`, a ConfigMap's key links).
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How often the layout is looked at: a swap is applied well within a second. */
const layoutProbeMs = 400;

async function identity(path: string): Promise<string> {
  try {
    const real = await realpath(path);
    const info = await stat(real);
    return `${path} -> ${real} (${info.dev}:${info.ino})`;
  } catch {
    return `${path} -> (missing)`;
  }
}

async function linksIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return Promise.all(entries.filter((e) => e.isSymbolicLink()).map((e) => identity(join(dir, e.name))));
}

/** Where `paths` lead now, as one comparable string. */
async function layoutOf(paths: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const path of paths) {
    parts.push(await identity(path));
    const isDirectory = await lstat(path)
      .then(async (info) => info.isDirectory() || (info.isSymbolicLink() && (await stat(path)).isDirectory()))
      .catch(() => false);
    if (isDirectory) parts.push(...(await linksIn(path)));
  }
  return parts.join('\n');
}

/** A running probe. */
interface LayoutProbe {
  /** Resolves once the first layout is known. */
  readonly ready: Promise<void>;
  close(): void;
}

/** Calls `onSwap` whenever where `paths` lead changes. */
export function probeLayout(
  paths: readonly string[],
  onSwap: () => void,
  everyMs = layoutProbeMs,
): LayoutProbe {
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const look = async (): Promise<void> => {
    const now = await layoutOf(paths);
    if (closed) return;
    if (last !== undefined && now !== last) onSwap();
    last = now;
    timer = setTimeout(() => void look(), everyMs);
    // Never what keeps a process alive: the daemon's server and loop do that.
    timer.unref();
  };
  return {
    ready: look(),
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
