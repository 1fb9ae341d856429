/**
 * `--api-key-file FILE`: the key read from a file, and read again when the file changes and after
 * the service refuses the key (401), so that a Kubernetes Secret rotated under a running daemon is
 * used without a restart. The kubelet swaps the file atomically (a `..data` symlink), so a read
 * sees the old key or the new one, never a mix.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { ApiKeySource } from '../api/index.js';
import { UserError, isSystemError, systemUserError } from '../errors.js';
import type { WatchMetrics } from '../watch/index.js';

/** Why the key changed: the file changed, or the service refused the old key and the file held another. */
export type KeyRotationCause = 'file_changed' | 'unauthorized';

/** How often a watching daemon reads the file: a rotation is picked up within seconds, not at the next 401. */
const keyFilePollMs = 2_000;

async function readKey(path: string): Promise<string> {
  try {
    const key = (await readFile(path, 'utf8')).trim();
    if (key === '') throw new UserError(`the API key file ${path} is empty`);
    return key;
  } catch (err) {
    throw isSystemError(err) ? systemUserError(`read the API key file ${path}`, err) : err;
  }
}

export class ApiKeyFile implements ApiKeySource {
  readonly path: string;
  #key: string;
  #timer: NodeJS.Timeout | undefined;
  readonly #onRotate: (cause: KeyRotationCause) => void;

  private constructor(path: string, key: string, onRotate: (cause: KeyRotationCause) => void) {
    this.path = path;
    this.#key = key;
    this.#onRotate = onRotate;
  }

  /** Reads the key; an unreadable or empty file is the user's error. */
  static async open(
    path: string,
    onRotate: (cause: KeyRotationCause) => void = () => {},
  ): Promise<ApiKeyFile> {
    return new ApiKeyFile(path, await readKey(path), onRotate);
  }

  current(): string {
    return this.#key;
  }

  renew(): Promise<boolean> {
    return this.#reread('unauthorized');
  }

  /** Reads the file again every few seconds until {@link ApiKeyFile.close}. */
  watch(everyMs = keyFilePollMs): void {
    const tick = (): void => {
      void this.#reread('file_changed').finally(() => {
        if (this.#timer === undefined) return;
        this.#timer = setTimeout(tick, everyMs);
        this.#timer.unref();
      });
    };
    this.#timer = setTimeout(tick, everyMs);
    this.#timer.unref();
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * True when the file now holds another key. A file missing or empty for a moment (mid-swap) keeps
   * the key there is: the next read or the next 401 tries again.
   */
  async #reread(cause: KeyRotationCause): Promise<boolean> {
    const key = await readKey(this.path).catch(() => undefined);
    if (key === undefined || key === this.#key) return false;
    this.#key = key;
    this.#onRotate(cause);
    return true;
  }
}

/** A daemon's account of a rotation: a log line naming the file and the cause (never the key), and the metric. */
export function keyRotationReport(
  log: Logger,
  metrics: WatchMetrics,
  file: string | undefined,
): (cause: KeyRotationCause) => void {
  return (cause) => {
    log.info({ file, cause }, 'the API key file holds a new key: using it');
    metrics.recordKeyRotation(cause);
  };
}
