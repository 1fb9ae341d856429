/** Watches the config tree with chokidar and reports debounced changes, ignoring editors' scratch files. */
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { compare } from '../compare.js';
import { isSkippedDirectory } from '../config/index.js';
import { debounce } from './debounce.js';
import { probeLayout } from './layout-probe.js';

/**
 * Files no one means as config: vim swap files and its `4913` write probe, backups (`file~`,
 * `.bak`, `.orig`), emacs locks and autosaves (`.#file`, `#file#`), temp files of atomic saves
 * (`.tmp`, JetBrains' `___jb_tmp___`), and OS litter. Reacting to them would reconcile on every
 * keystroke of an open editor.
 */
const scratchFile = [
  /\.(sw[a-p]|swx|swpx)$/i,
  /~$/,
  /^\.#/,
  /^#.*#$/,
  /^4913$/,
  /\.(tmp|temp|bak|orig)$/i,
  /___jb_(tmp|old)___$/,
  /^\.DS_Store$/,
];
/** `path` below the watched root that holds it (the whole path when none does). */
function belowRoot(path: string, roots: readonly string[]): string {
  const absolute = resolve(path);
  for (const root of roots) {
    const rel = relative(resolve(root), absolute);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return rel;
  }
  return path;
}

/**
 * True for paths the watcher ignores: scratch files, and anything below a directory the loader
 * skips (judged below the watched `roots`, so a config kept under `~/.config` is still watched).
 */
export function isIgnoredPath(path: string, roots: readonly string[] = []): boolean {
  if (belowRoot(path, roots).split(sep).slice(0, -1).some(isSkippedDirectory)) return true;
  const name = basename(path);
  return scratchFile.some((pattern) => pattern.test(name));
}

interface ConfigWatcherOptions {
  readonly paths: readonly string[];
  readonly debounceMs: number;
  /** Called once per burst of changes, with the paths that changed in it. */
  readonly onChange: (paths: readonly string[]) => void;
  readonly onError: (error: unknown) => void;
}

/** A running watcher. */
interface ConfigWatcher {
  /** Resolves when the initial scan is done and changes from now on are seen. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts watching. Atomic saves (write a temp file, rename it over the original; or unlink and add)
 * arrive as several events: chokidar's `atomic` option folds an unlink followed by an add into one
 * change, and the debounce folds the rest, so one save makes one reconcile. A swap of a symlink on
 * the watched paths (a ConfigMap's `..data`, a git-sync link) or of the watched directory itself is
 * seen by the layout probe; chokidar then starts afresh on the new targets.
 */
export function watchConfig(options: ConfigWatcherOptions): ConfigWatcher {
  const changed = new Set<string>();
  const burst = debounce(options.debounceMs, () => {
    const paths = [...changed].sort(compare);
    changed.clear();
    options.onChange(paths);
  });
  const start = (): FSWatcher => {
    const w = watch([...options.paths], {
      ignoreInitial: true,
      atomic: true,
      ignored: (path) => isIgnoredPath(path, options.paths),
    });
    w.on('all', (_event, path) => {
      changed.add(path);
      burst.trigger();
    });
    w.on('error', options.onError);
    return w;
  };
  let watcher = start();
  const first = new Promise<void>((resolve) => watcher.once('ready', resolve));
  const probe = probeLayout(options.paths, () => {
    const old = watcher;
    watcher = start();
    // The old revision's files are being deleted: what its watcher says of them is not news.
    void old.close();
    for (const p of options.paths) changed.add(p);
    burst.trigger();
  });
  return {
    ready: Promise.all([first, probe.ready]).then(() => undefined),
    async close() {
      probe.close();
      burst.cancel();
      await watcher.close();
    },
  };
}
