/**
 * Scenario 4: requests/s the emulator serves for a full list page (GET, 100 IP policies) and a
 * create (POST), from a fixed-concurrency undici load generator, against a bare node:http server
 * answering with payloads of the same sizes. Both servers run in a child process of their own.
 */
import { request } from 'undici';
import { generateLoad, type LoadRequest } from '../lib/load.js';
import { startServer, type ChildServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const concurrency = 16;

/** Alternates short slices against the two servers; the ratio is the median of paired slices. */
async function paired(
  emu: ChildServer,
  bare: ChildServer,
  next: (i: number) => LoadRequest,
  slices: number,
  sliceMs: number,
): Promise<{
  emulator: number;
  bare: number;
  ratio: number;
  cpuRatio: number;
  emuCpuUs: number;
  bareCpuUs: number;
  non2xx: number;
}> {
  const e: number[] = [];
  const b: number[] = [];
  let emuCpuMs = 0;
  let bareCpuMs = 0;
  let emuRequests = 0;
  let bareRequests = 0;
  let non2xx = 0;
  for (let i = 0; i < slices; i++) {
    const options = { concurrency, durationMs: sliceMs };
    const e0 = await emu.cpuMs();
    const re = await generateLoad(emu.url, next, options);
    emuCpuMs += (await emu.cpuMs()) - e0;
    emuRequests += re.requests;
    const b0 = await bare.cpuMs();
    const rb = await generateLoad(bare.url, next, options);
    bareCpuMs += (await bare.cpuMs()) - b0;
    bareRequests += rb.requests;
    e.push(re.perSecond);
    b.push(rb.perSecond);
    non2xx += Object.entries(re.statuses)
      .filter(([s]) => !s.startsWith('2'))
      .reduce((sum, [, c]) => sum + c, 0);
  }
  const emuCpuUs = (emuCpuMs * 1000) / emuRequests;
  const bareCpuUs = (bareCpuMs * 1000) / bareRequests;
  return {
    emulator: median(e),
    bare: median(b),
    ratio: median(e.map((x, i) => x / (b[i] ?? Number.NaN))),
    cpuRatio: bareCpuUs / emuCpuUs,
    emuCpuUs,
    bareCpuUs,
    non2xx,
  };
}

export async function emulatorThroughput(quick: boolean): Promise<ScenarioResult> {
  const slices = quick ? 2 : 6;
  const sliceMs = quick ? 500 : 1_000;
  const emulator = await startServer({ mode: 'emulator' });
  const headers = {
    authorization: `Bearer ${emulator.token}`,
    'svc-version': '2',
    accept: 'application/json',
    'content-type': 'application/json',
  };
  const postBody = (i: number): string =>
    JSON.stringify({ description: `load ${i}`, metadata: '{"acctsync":{"scope":"load","key":"x"}}' });
  const get: LoadRequest = { method: 'GET', path: '/ip_policies?limit=100', headers };
  const post = (i: number): LoadRequest => ({
    method: 'POST',
    path: '/ip_policies',
    headers,
    body: postBody(i),
  });
  let bare: ChildServer | undefined;
  try {
    // A full page to list, then the sizes of the two answers for the bare server to mimic.
    await generateLoad(emulator.url, post, { concurrency: 8, maxRequests: 100 });
    const g = await request(`${emulator.url}${get.path}`, { headers });
    const getBytes = Buffer.byteLength(await g.body.text());
    const p = await request(`${emulator.url}/ip_policies`, { method: 'POST', headers, body: postBody(-1) });
    const postBytes = Buffer.byteLength(await p.body.text());
    bare = await startServer({ mode: 'bare', getBytes, postBytes });
    const rGet = await paired(emulator, bare, () => get, slices, sliceMs);
    const rPost = await paired(emulator, bare, post, slices, sliceMs);
    const row = (name: string, bytes: number, r: typeof rGet) => ({
      request: name,
      response_bytes: bytes,
      concurrency,
      slices,
      emulator_rps: round(r.emulator, 0),
      bare_rps: round(r.bare, 0),
      ratio: round(r.ratio, 2),
      server_cpu_us_per_req_emulator: round(r.emuCpuUs, 0),
      server_cpu_us_per_req_bare: round(r.bareCpuUs, 0),
      cpu_ratio: round(r.cpuRatio, 2),
      emulator_non_2xx: r.non2xx,
    });
    return {
      scenario: 'emulator-throughput',
      rows: [row('GET list (100 items)', getBytes, rGet), row('POST create', postBytes, rPost)],
      targets: {
        'GET list >= 0.9 of bare node:http': rGet.ratio >= 0.9,
        'POST create >= 0.85 of bare node:http': rPost.ratio >= 0.85,
      },
      notes: [
        'rates are medians over slices; the ratio is the median of back-to-back slice pairs',
        'cpu_ratio: bare server CPU per request / emulator CPU per request (throughput ratio if CPU-bound, independent of load)',
      ],
    };
  } finally {
    await emulator.stop();
    await bare?.stop();
  }
}
