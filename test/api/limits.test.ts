import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ApiClientOptions } from '../../src/api/index.js';
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
  const toleranceMs = 5;

  function arrivalGaps(arrivals: number[]): number[] {
    return arrivals.slice(1).map((t, i) => t - (arrivals[i] ?? 0));
  }

  it('spreads request starts evenly', async () => {
    const arrivals: number[] = [];
    const api = await setup(
      (_req, res) => {
        arrivals.push(performance.now());
        sendJson(res, 200, {});
      },
      { ratePerMinute, concurrency: 8 },
    );

    await Promise.all(Array.from({ length: 5 }, (_, i) => api.get(`/x/${i}`)));

    expect(arrivals).toHaveLength(5);
    for (const gap of arrivalGaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(50 - toleranceMs);
  });

  it('paces retries too', async () => {
    const arrivals: number[] = [];
    const api = await setup(
      (_req, res, index) => {
        arrivals.push(performance.now());
        sendJson(res, index < 2 ? 503 : 200, {});
      },
      { ratePerMinute, retry: { baseDelayMs: 0 } },
    );

    await api.get('/x');

    expect(arrivals).toHaveLength(3);
    for (const gap of arrivalGaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(50 - toleranceMs);
  });
});
