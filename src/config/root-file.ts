/**
 * Reads a file the config names, by one descriptor: the path is judged (`checkInRoot`), its real
 * location opened without following a last link and without blocking, and the opened file itself
 * judged again (its real path, its type) before a byte is read from it. A path checked and then
 * read by name could be a link swapped in between, leading outside the root; a FIFO would hang the
 * read.
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { checkInRoot, checkRealInRoot, type FilesRoot } from './files-root.js';
import { isSystemError } from '../errors.js';

export type RootFileRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | {
      readonly ok: false;
      readonly reason: 'outside' | 'git' | 'missing' | 'changed' | 'not-a-file' | 'too-large';
    }
  | {
      readonly ok: false;
      readonly reason: 'unreadable';
      readonly error: NodeJS.ErrnoException & { code: string };
    };

const openFlags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Where the open descriptor `fd` leads, symlinks resolved. Linux names it in /proc; elsewhere the
 * path opened is resolved again and must still be the same file.
 */
function openedRealPath(fd: number, opened: string): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    const now = realpathSync(opened);
    const [held, named] = [fstatSync(fd), statSync(now)];
    return held.dev === named.dev && held.ino === named.ino ? now : undefined;
  }
}

function readAll(fd: number, limit: number): Buffer | undefined {
  const buffer = Buffer.alloc(limit + 1);
  let length = 0;
  for (;;) {
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
    if (length > limit) return undefined;
  }
}

/** A path inside the root that does not resolve: missing, or a link loop or a denied directory. */
function whyUnresolved(absolute: string): RootFileRead {
  try {
    realpathSync(absolute);
  } catch (err) {
    if (isSystemError(err) && err.code !== 'ENOENT') return { ok: false, reason: 'unreadable', error: err };
  }
  return { ok: false, reason: 'missing' };
}

/** The content of `absolute` (a path as written, resolved), at most `limit` bytes, if the root allows it. */
export function readFileInRoot(root: FilesRoot, absolute: string, limit: number): RootFileRead {
  const named = checkInRoot(root, absolute);
  if (!named.ok) return named.reason === 'missing' ? whyUnresolved(absolute) : named;
  let fd: number;
  try {
    fd = openSync(named.real, openFlags);
  } catch (err) {
    if (!isSystemError(err)) throw err;
    // A link where a file was judged a moment ago: the path changed under the check.
    if (err.code === 'ELOOP') return { ok: false, reason: 'changed' };
    if (err.code === 'ENOENT') return { ok: false, reason: 'missing' };
    // A socket cannot be opened; it is not a file either way.
    if (err.code === 'ENXIO') return { ok: false, reason: 'not-a-file' };
    return { ok: false, reason: 'unreadable', error: err };
  }
  try {
    const real = openedRealPath(fd, named.real);
    if (real === undefined) return { ok: false, reason: 'changed' };
    const opened = checkRealInRoot(root, real);
    if (!opened.ok) return opened;
    const info = fstatSync(fd);
    if (!info.isFile()) return { ok: false, reason: 'not-a-file' };
    if (info.size > limit) return { ok: false, reason: 'too-large' };
    const bytes = readAll(fd, limit);
    return bytes === undefined ? { ok: false, reason: 'too-large' } : { ok: true, bytes };
  } catch (err) {
    if (!isSystemError(err)) throw err;
    return { ok: false, reason: 'unreadable', error: err };
  } finally {
    closeSync(fd);
  }
}
