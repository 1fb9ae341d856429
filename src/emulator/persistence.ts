/**
 * Saving and loading the whole account. Saves are coalesced (many writes, one save shortly after)
 * and atomic: the state goes to a temporary file that is fsynced and renamed over the data file, so
 * a crash leaves either the old or the new state, never a torn file.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { isSystemError, systemUserError, UserError } from '../errors.js';
import type { KindRegistry } from '../resources/index.js';
import type { Account } from './account.js';
import type { StoredRecord } from './collection.js';
import type { Agent, Delivery, Principal } from './model.js';

const FORMAT = 'acctsync-emulator-state';

/** The saved state, JSON. */
export interface Snapshot {
  readonly format: typeof FORMAT;
  readonly version: 1;
  readonly watermark: number;
  readonly principals: readonly Principal[];
  readonly records: ReadonlyArray<{ readonly kind: string } & StoredRecord>;
  readonly agents: readonly Agent[];
  readonly deliveries: readonly Delivery[];
}

export function snapshot(account: Account): Snapshot {
  return {
    format: FORMAT,
    version: 1,
    watermark: account.ids.watermark,
    principals: [...account.principals.values()],
    records: [...account.records()].map(({ d, record }) => ({ kind: d.kind, ...record })),
    agents: [...account.agents.values()],
    deliveries: account.deliveries,
  };
}

/** A data file that is not a saved state: the user must fix or remove it. */
class StateFileError extends UserError {
  constructor(file: string, reason: string, options: { cause?: unknown } = {}) {
    super(
      `${file} is not an emulator state file: ${reason}; fix it, or move it away to start empty`,
      options,
    );
  }
}

/**
 * Reads a saved state; undefined when the file does not exist yet.
 * @throws {UserError} when the file cannot be read or is not a saved state
 */
export async function loadSnapshot(file: string, kinds: KindRegistry): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw isSystemError(err) ? systemUserError(`use the emulator state file ${file}`, err) : err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new StateFileError(file, 'it is not valid JSON', { cause: err });
  }
  const state = parsed as Partial<Snapshot> | null;
  if (state?.format !== FORMAT || state.version !== 1 || !Array.isArray(state.records)) {
    throw new StateFileError(file, `expected format ${FORMAT} version 1`);
  }
  const records: readonly unknown[] = state.records;
  for (const record of records) {
    const kind = (record as { kind?: unknown } | null)?.kind;
    if (typeof kind !== 'string' || !kinds.has(kind)) {
      throw new StateFileError(file, `it holds an unknown kind ${JSON.stringify(kind)}`);
    }
  }
  return state as Snapshot;
}

/** Puts a saved state into an empty account. */
export function restore(account: Account, state: Snapshot): void {
  account.ids.advance(state.watermark);
  for (const p of state.principals) account.principals.set(p.id, p);
  for (const { kind, ...record } of state.records) {
    if (!account.kinds.has(kind)) throw new Error(`saved state has an unknown kind ${kind}`);
    account.insert(account.kinds.descriptorOf(kind), { ...record });
  }
  for (const agent of state.agents) account.agents.set(agent.id, agent);
  account.deliveries.push(...state.deliveries);
}

/** Writes `text` to `file` atomically: temp file, fsync, rename, fsync of the directory. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  // The rename is durable only once the directory entry is: best effort (not every platform allows it).
  const dir = await open(dirname(file), 'r').catch(() => undefined);
  await dir?.sync().catch(() => undefined);
  await dir?.close();
}

/** Coalesces save requests: at most one write in flight, one more queued, after a short delay. */
export class SaveQueue {
  readonly #file: string;
  readonly #produce: () => string;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #dirty = false;
  /** The last failure, reported by `flush`. */
  #error: Error | undefined;

  readonly #onError: (err: Error) => void;

  /** `onError` hears of each failed background save; `flush` throws the last one still unresolved. */
  constructor(
    file: string,
    produce: () => string,
    options: { delayMs?: number; onError?: (err: Error) => void } = {},
  ) {
    this.#file = file;
    this.#produce = produce;
    this.#delayMs = options.delayMs ?? 25;
    this.#onError = options.onError ?? (() => undefined);
  }

  schedule(): void {
    this.#dirty = true;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.#save(this.#onError);
    }, this.#delayMs);
  }

  /** Saves if anything changed; a failure is kept for `flush` and told to `report`. */
  #save(report: (err: Error) => void): Promise<void> {
    this.#running = this.#running.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      try {
        await writeAtomically(this.#file, this.#produce());
        // Every save writes the whole account: one that succeeds makes up for those that failed.
        this.#error = undefined;
      } catch (err) {
        this.#error = isSystemError(err)
          ? systemUserError(`save the emulator state to ${this.#file}`, err)
          : err instanceof Error
            ? err
            : new Error(String(err));
        report(this.#error);
      }
    });
    return this.#running;
  }

  /**
   * Writes pending changes now; rejects when a save failed.
   * @throws {UserError} when the file system refused the save (full disk, permissions)
   */
  async flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    await this.#save(() => undefined);
    if (this.#error !== undefined) {
      const err = this.#error;
      this.#error = undefined;
      throw err;
    }
  }
}
