/** The parse worker: reads and parses the files of a {@link ParseTask} it takes from the shared queue. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ParsedMessage, ParseTask } from './parse-task.js';
import { readSourceData } from './source.js';

async function parseTaken({ files, next }: ParseTask): Promise<void> {
  for (let i = Atomics.add(next, 0, 1); i < files.length; i = Atomics.add(next, 0, 1)) {
    const f = files[i] as (typeof files)[number];
    let message: ParsedMessage;
    try {
      message = { index: i, read: await readSourceData(f.file, f.absolute) };
      parentPort?.postMessage(message);
    } catch {
      message = { index: i };
      parentPort?.postMessage(message);
    }
  }
}

void parseTaken(workerData as ParseTask);
