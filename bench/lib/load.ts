/**
 * A fixed-concurrency load generator on undici: `concurrency` workers, each sending its next
 * request as soon as the previous answer is read, over one keep-alive connection each.
 */
import { Pool } from 'undici';

export interface LoadRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface LoadResult {
  readonly requests: number;
  readonly errors: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** CPU time of this process during the run, ms per request sent. */
  readonly clientCpuMsPerRequest: number;
  /** Status codes seen, with counts. */
  readonly statuses: Readonly<Record<string, number>>;
}

/**
 * Sends requests made by `next(i)` for `durationMs` (after `warmupMs` not counted), or until
 * `maxRequests` have been sent, whichever comes first.
 */
export async function generateLoad(
  origin: string,
  next: (i: number) => LoadRequest,
  options: { concurrency: number; durationMs?: number; warmupMs?: number; maxRequests?: number },
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: options.concurrency });
  const statuses: Record<string, number> = {};
  let sent = 0;
  let counted = 0;
  let errors = 0;
  const warmupEnd = performance.now() + (options.warmupMs ?? 0);
  const end = options.durationMs === undefined ? Infinity : warmupEnd + options.durationMs;
  const max = options.maxRequests ?? Infinity;
  let firstCounted = Number.NaN;
  let lastDone = Number.NaN;
  const worker = async (): Promise<void> => {
    while (sent < max && performance.now() < end) {
      const i = sent++;
      const r = next(i);
      try {
        const res = await pool.request({
          method: r.method,
          path: r.path,
          headers: r.headers,
          body: r.body ?? null,
        });
        await res.body.text();
        const now = performance.now();
        if (now >= warmupEnd) {
          if (Number.isNaN(firstCounted)) firstCounted = warmupEnd;
          counted++;
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          lastDone = now;
        }
      } catch {
        errors++;
      }
    }
  };
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(Array.from({ length: options.concurrency }, () => worker()));
  const cpu = process.cpuUsage(cpu0);
  await pool.close();
  const from = Number.isNaN(firstCounted) ? started : firstCounted;
  const seconds = ((Number.isNaN(lastDone) ? performance.now() : lastDone) - from) / 1000;
  return {
    requests: counted,
    errors,
    seconds,
    perSecond: counted / seconds,
    clientCpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, sent),
    statuses,
  };
}
