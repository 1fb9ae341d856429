/**
 * Loads a CommonJS file of the bundle through V8's code cache. Compiling is a large share of a
 * command's start (the structural validator alone is 0.9 MB of code, compiled again at its first
 * call), and Node 20 keeps no compile cache of its own: the first run writes what V8 compiled,
 * lazily compiled functions included, to a cache file, and later runs start from it. The build
 * writes each such file with a first line naming a hash of its content (`src/cli/bundle.ts`), so a
 * cache never outlives the code it was made from; V8 itself refuses a cache of another Node version
 * or other flags. Where the cache cannot be read or written, the file simply compiles as any other.
 * `NODE_DISABLE_COMPILE_CACHE` (Node's own switch for its cache) turns it off.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** The first line the build gives a file to be cached: the marker, then the content's hash. */
export const cacheKeyMarker = '//acctsync-cache-key:';

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: object, ...rest: string[]) => void;

/** The `module.exports` of the CommonJS file at `url`, run in this context. */
export function requireCached(url: URL): unknown {
  const file = fileURLToPath(url);
  const source = readFileSync(file, 'utf8');
  const cacheFile = cacheFileOf(source);
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  // One line, so that positions in the file's first line are all that move.
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} };
  (script.runInThisContext() as CommonJsWrapper)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    // At exit, so that the cache holds the functions this run compiled, not only the top level.
    process.once('exit', () => writeQuietly(cacheFile, () => script.createCachedData()));
  }
  return module.exports;
}

function cacheFileOf(source: string): string | undefined {
  if (!source.startsWith(cacheKeyMarker) || process.env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const key = source.slice(cacheKeyMarker.length, source.indexOf('\n'));
  if (!/^[0-9a-f]{16,64}$/.test(key)) return undefined;
  const dir = cacheDir();
  return dir === undefined ? undefined : join(dir, `${key}-${process.version}-${process.arch}.bin`);
}

/**
 * A directory of this user's, in the temporary directory as Node's own compile cache is. A cache is
 * code that runs: one in a directory someone else owns is not used.
 */
function cacheDir(): string | undefined {
  const dir = join(tmpdir(), 'acctsync-compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const { uid, mode } = statSync(dir);
    if (uid !== process.getuid?.() || (mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written beside and renamed, so that a run reading it at the same moment sees all of it or none. */
function writeQuietly(file: string, data: () => Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    writeFileSync(partial, data(), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // A cache not written is a cache missed next time, nothing more.
  }
}
