/** What the main thread and the parse worker (`parse-worker.ts`) share: the task, its messages, the file. */
import type { ExpandedFile } from './files.js';
import type { ReadData } from './source.js';

/**
 * The files of one read and the head of their queue: each thread takes the next index with
 * `Atomics.add`, so neither waits for the other to hand out work.
 */
export interface ParseTask {
  readonly files: readonly ExpandedFile[];
  readonly next: Int32Array;
}

/** One file read by the worker; `read` is missing when reading it threw (the main thread reads it again). */
export interface ParsedMessage {
  readonly index: number;
  readonly read?: ReadData;
}

/** The worker's script. The build points it at the bundle's copy (`src/cli/bundle.ts`). */
export const parseWorkerFile = new URL('./parse-worker.js', import.meta.url);
