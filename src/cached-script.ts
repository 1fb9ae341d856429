/**
 * SECOND PATH (issue 46), with `cli/bundle.ts`: kept for a command's start; the first path is
 * Node's own loader (`dist/cli/dispatch.js`), and `test/cli/compile-cache.test.ts` holds the verdicts equal. Measured by `npm run bench -- --only second-paths`
 * (docs/performance.md, "Second paths").
 *
 * Loads the bundle's CommonJS files through V8's code cache. Compiling is a large share of a
 * command's start (the bundle a validation loads is some 2 MB of code, and V8 compiles each function
 * again at its first call), and Node 20 keeps no compile cache of its own: the first run writes what
 * V8 compiled, lazily compiled functions included, to a cache file per bundle file, and later runs
 * start from it. The build writes each such file with a first line naming a hash of its content
 * (`src/cli/bundle.ts`), so a cache never outlives the code it was made from; V8 itself refuses a
 * cache of another Node version or other flags. Where the cache cannot be read or written, a file
 * simply compiles as any other. `NODE_DISABLE_COMPILE_CACHE` (Node's own switch for its cache)
 * turns it off.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The first line the build gives a file to be cached: the marker, then the content's hash. */
export const cacheKeyMarker = '//acctsync-cache-key:';

type CommonJsWrapper = (
  exports: object,
  require: (id: string) => unknown,
  module: { exports: unknown },
  filename: string,
  dirname: string,
) => void;

/** The files loaded so far, by path: each runs once, as CommonJS modules do (cycles included). */
const loaded = new Map<string, { exports: unknown }>();
/** Caches to write at exit: those that were missing or that V8 refused. */
const unwritten: { file: string; script: Script }[] = [];

/** The `module.exports` of the CommonJS file at `url`, run in this context. */
export function requireCached(url: URL): unknown {
  return load(fileURLToPath(url));
}

function load(file: string): unknown {
  const known = loaded.get(file);
  if (known !== undefined) return known.exports;
  const source = readFileSync(file, 'utf8');
  const cacheFile = cacheFileOf(source);
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  // One line, so that positions in the file's first line are all that move.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    if (unwritten.length === 0) process.once('exit', writeCaches);
    unwritten.push({ file: cacheFile, script });
  }
  const module = { exports: {} };
  loaded.set(file, module);
  const dir = dirname(file);
  const native = createRequire(file);
  // A bundle file's own files (`./chunk-….cjs`) load the same way; packages and built-ins as usual.
  const require = (id: string): unknown => (id.startsWith('./') ? load(join(dir, id)) : native(id));
  (script.runInThisContext() as CommonJsWrapper)(module.exports, require, module, file, dir);
  return module.exports;
}

function cacheFileOf(source: string): string | undefined {
  if (!source.startsWith(cacheKeyMarker) || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const key = source.slice(cacheKeyMarker.length, source.indexOf('\n'));
  if (!/^[0-9a-f]{16,64}$/.test(key)) return undefined;
  const dir = cacheDir();
  return dir === undefined ? undefined : join(dir, `${key}-${process.version}-${process.arch}.bin`);
}

let checkedDir: string | null | undefined;

/**
 * A directory of this user's, in the temporary directory as Node's own compile cache is. A cache is
 * code that runs: one in a directory someone else owns, or others may write, is not used.
 */
function cacheDir(): string | undefined {
  if (checkedDir !== undefined) return checkedDir ?? undefined;
  const dir = join(tmpdir(), 'acctsync-compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { uid, mode } = statSync(dir);
    checkedDir = uid === process.getuid?.() && (mode & 0o022) === 0 ? dir : null;
  } catch {
    checkedDir = null;
  }
  return checkedDir ?? undefined;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** At exit, so that each cache holds the functions this run compiled, not only the top level. */
function writeCaches(): void {
  for (const { file, script } of unwritten) writeQuietly(file, script.createCachedData());
}

/** Written beside and renamed, so that a run reading it at the same moment sees all of it or none. */
function writeQuietly(file: string, data: Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, data, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // A cache not written is a cache missed next time, nothing more.
    rmSync(partial, { force: true });
  }
}
