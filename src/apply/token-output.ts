/**
 * Tokens the API returns once, at creation (API keys, tunnel credentials), kept in the one place
 * the user asked for: a JSON file only its owner can read. Never printed, never logged.
 */
import { chmod, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { isSystemError, systemUserError, UsageError, UserError } from '../errors.js';
import type { TokenFileView } from '../plan-format/index.js';
import { isPlainObject } from '../plain-object.js';

/** One entry per logical key. */
interface TokenEntry {
  readonly kind: string;
  readonly id: string;
  readonly token: string;
  readonly createdAt: string;
}

/** Receives each created token as soon as the create response arrives. */
export interface TokenSink {
  save(key: string, entry: TokenEntry): Promise<void>;
}

async function readExisting(path: string): Promise<Record<string, TokenEntry>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw isSystemError(err) ? systemUserError(`read the token file ${path}`, err) : err;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed)) return parsed as Record<string, TokenEntry>;
  } catch {
    // fall through to the error below
  }
  throw new UserError(`the token file ${path} exists but is not a JSON object`, {
    details: [
      'Move it away or pass another --token-output file; acctsync will not overwrite tokens it cannot read.',
    ],
  });
}

/**
 * Ids of the objects whose token the file at `path` holds (none when it does not exist yet).
 * @throws {UserError} when the file exists but cannot be read as a token file
 */
async function capturedTokenIds(path: string): Promise<ReadonlySet<string>> {
  const entries = await readExisting(path);
  return new Set(
    Object.values(entries).flatMap((entry) => (typeof entry?.id === 'string' ? [entry.id] : [])),
  );
}

/**
 * A sink writing `path` after every token (a run that fails later keeps the tokens it got), merging
 * with entries already in the file so a later sync does not lose an earlier one's tokens. Each write
 * goes to a 0600 temporary file renamed over the target, so the file is never readable by others,
 * not even for a moment, and never half-written.
 * @throws {UserError} at creation when an existing file cannot be read or the file cannot be written:
 *   checked before any API write
 */
export async function fileTokenSink(path: string): Promise<TokenSink> {
  const entries = await readExisting(path);
  const tmp = `${path}.${process.pid}.tmp`;
  const text = (): string => `${JSON.stringify(entries, null, 2)}\n`;
  const failure = (err: unknown): unknown =>
    isSystemError(err) ? systemUserError(`write the token file ${path}`, err) : err;
  // A token arrives once: a file that cannot be written must stop the run before the API makes one.
  await writeFile(tmp, text(), { mode: 0o600 }).then(
    () => unlink(tmp),
    (err: unknown) => {
      throw failure(err);
    },
  );
  let queue = Promise.resolve();
  const write = async (): Promise<void> => {
    try {
      await writeFile(tmp, text(), { mode: 0o600 });
      await chmod(tmp, 0o600);
      await rename(tmp, path);
    } catch (err) {
      throw failure(err);
    }
  };
  return {
    save(key, entry) {
      entries[key] = entry;
      // Writes are serialized: two creates finishing together must not interleave their files.
      queue = queue.then(write, write);
      return queue;
    },
  };
}

/**
 * What the planner needs of the `--token-output` file, from the flags; undefined without one.
 * @throws {UsageError} for `--recapture-tokens` without `--token-output`: the new tokens would be lost too
 */
export async function tokenFileView(
  path: string | undefined,
  recapture: boolean,
): Promise<TokenFileView | undefined> {
  if (path === undefined) {
    if (recapture)
      throw new UsageError('--recapture-tokens needs --token-output FILE: the new tokens would be lost too');
    return undefined;
  }
  return { capturedIds: await capturedTokenIds(path), recapture };
}
