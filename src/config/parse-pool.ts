/**
 * Reads the files of a large config on two threads: a worker thread and this one take files from
 * one queue in order, and the results come back in the files' order. Parsing YAML is the largest
 * part of loading and the worker's share of it runs beside the rest of the command. Whatever the
 * worker does not hand back (it could not start, it crashed, a file's data could not be cloned) is
 * read here, with the same result. Loaded only for a config large enough to repay the worker's
 * start (`source-reader.ts`).
 */
import { Worker } from 'node:worker_threads';
import { parseWorkerFile, type ParsedMessage, type ParseTask } from './parse-task.js';
import type { ExpandedFile } from './files.js';
import { readSourceData, type ReadData } from './source.js';

export async function readPooled(files: readonly ExpandedFile[]): Promise<ReadData[]> {
  const task: ParseTask = { files, next: new Int32Array(new SharedArrayBuffer(4)) };
  const reads: (ReadData | undefined)[] = files.map(() => undefined);
  const missing = (): boolean => reads.includes(undefined);
  let allRead: (() => void) | undefined;
  const exited = startWorker(task, ({ index, read }) => {
    reads[index] = read;
    if (!missing()) allRead?.();
  });
  const take = (): number => Atomics.add(task.next, 0, 1);
  for (let i = take(); i < files.length; i = take()) {
    const f = files[i] as ExpandedFile;
    reads[i] = await readSourceData(f.file, f.absolute);
  }
  if (missing()) await Promise.race([exited, new Promise<void>((resolve) => (allRead = resolve))]);
  for (const [i, f] of files.entries()) reads[i] ??= await readSourceData(f.file, f.absolute);
  return reads as ReadData[];
}

/** Starts the worker on `task`; resolves when it is gone, however it ended. */
function startWorker(task: ParseTask, onRead: (message: ParsedMessage) => void): Promise<void> {
  let worker: Worker;
  try {
    worker = new Worker(parseWorkerFile, { workerData: task });
  } catch {
    return Promise.resolve();
  }
  worker.on('message', onRead);
  // A worker that fails leaves its files unread: they are read on this thread.
  worker.on('error', () => undefined);
  return new Promise((resolve) => worker.once('exit', () => resolve()));
}
