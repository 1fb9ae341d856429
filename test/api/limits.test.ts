import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ApiClientOptions, type ResponseEvent } from '../../src/api/index.js';
import { sendJson, startServer, type Handler, type TestServer } from './server.js';

const servers: TestServer[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(handler: Handler, options: Partial<ApiClientOptions>): Promise<ApiClient> {
  const server = await startServer(handler);
  servers.push(server);
  const created = new ApiClient({ baseUrl: server.url, apiKey: 'k', ...options });
  clients.push(created);
  return created;
}

describe('concurrency', () => {
  it('never has more requests in flight than configured', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const api = await setup(
      (_req, res) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        setTimeout(() => {
          inFlight--;
          sendJson(res, 200, {});
        }, 20);
      },
      { concurrency: 3 },
    );

    await Promise.all(Array.from({ length: 12 }, (_, i) => api.get(`/x/${i}`)));

    expect(maxInFlight).toBe(3);
  });
});

describe('pacing', () => {
  const ratePerMinute = 1200; // one start every 50 ms
  // Starts are taken from onResponse (end minus duration): what the pacer controls. Arrival times at
  // the server, in this same process, jitter with the event loop.
  const timerSlackMs = 2;

  function recordStarts(): { starts: number[]; onResponse: (e: ResponseEvent) => void } {
    const starts: number[] = [];
    return { starts, onResponse: (e) => starts.push(performance.now() - e.durationMs) };
  }

  function gaps(times: number[]): number[] {
    const sorted = [...times].sort((a, b) => a - b);
    return sorted.slice(1).map((t, i) => t - (sorted[i] ?? 0));
  }

  it('spreads request starts evenly', async () => {
    const { starts, onResponse } = recordStarts();
    const api = await setup((_req, res) => sendJson(res, 200, {}), {
      ratePerMinute,
      concurrency: 8,
      onResponse,
    });

    const began = performance.now();
    await Promise.all(Array.from({ length: 5 }, (_, i) => api.get(`/x/${i}`)));

    expect(starts).toHaveLength(5);
    for (const gap of gaps(starts)) expect(gap).toBeGreaterThanOrEqual(50 - timerSlackMs);
    expect(performance.now() - began).toBeGreaterThanOrEqual(4 * 50 - timerSlackMs);
  });

  it('paces retries too', async () => {
    const { starts, onResponse } = recordStarts();
    const api = await setup((_req, res, index) => sendJson(res, index < 2 ? 503 : 200, {}), {
      ratePerMinute,
      retry: { baseDelayMs: 0 },
      onResponse,
    });

    await api.get('/x');

    expect(starts).toHaveLength(3);
    for (const gap of gaps(starts)) expect(gap).toBeGreaterThanOrEqual(50 - timerSlackMs);
  });
});
