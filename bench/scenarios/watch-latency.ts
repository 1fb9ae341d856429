/**
 * Scenario 5: `acctsync watch` (the built CLI, its own process) against an emulator behind a tiny
 * recording proxy. Each edit rewrites the config with one description changed; the latency is the
 * time from the start of the file write to the proxy receiving the first write request (PATCH) of
 * the apply it causes. Also split: write -> first request of the plan (watcher + debounce) and
 * first request -> first write (plan).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startServer } from '../lib/process.js';
import type { ScenarioResult } from '../lib/report.js';
import { quantile, round } from '../lib/stats.js';

interface Seen {
  readonly at: number;
  readonly method: string;
}

/** Forwards everything to `target`, noting when each request arrives. */
async function recordingProxy(target: string, seen: Seen[]): Promise<{ url: string; server: Server }> {
  const to = new URL(target);
  const server = createServer((req, res) => {
    seen.push({ at: performance.now(), method: req.method ?? 'GET' });
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const policyCount = 20;

function config(edit: number): string {
  const lines = ['version: 1', 'scope: watchbench', 'ip_policies:'];
  for (let i = 0; i < policyCount; i++) {
    lines.push(`  p${i}:`, `    description: "policy ${i} edit ${i === edit % policyCount ? edit : 0}"`);
  }
  return `${lines.join('\n')}\n`;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = performance.now() + timeoutMs;
  while (performance.now() < end) {
    if (check()) return true;
    await new Promise((done) => setTimeout(done, 5));
  }
  return false;
}

export async function watchLatency(quick: boolean, debounce = '300ms'): Promise<ScenarioResult> {
  const edits = quick ? 5 : 20;
  const dir = await mkdtemp(join(tmpdir(), 'acctsync-bench-watch-'));
  const file = join(dir, 'account.yaml');
  await writeFile(file, config(0));
  const emulator = await startServer({ mode: 'emulator' });
  const seen: Seen[] = [];
  const proxy = await recordingProxy(emulator.url, seen);
  // `npm run bench` runs at the package root and builds dist/ first.
  const cli = resolve('dist/cli/main.js');
  const daemon = spawn(
    process.execPath,
    [
      cli,
      'watch',
      dir,
      '--interval',
      '1h',
      '--debounce',
      debounce,
      '--listen',
      '127.0.0.1:0',
      '--log-level',
      'warn',
    ],
    {
      env: { ...process.env, SVC_API_URL: proxy.url, SVC_API_KEY: emulator.token },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const total: number[] = [];
  const toFirstRequest: number[] = [];
  const notes: string[] = [];
  const writes = (): Seen[] => seen.filter((s) => s.method !== 'GET');
  try {
    // The first reconcile creates the policies; then let the daemon go quiet.
    if (!(await waitFor(() => writes().length >= policyCount, 30_000))) {
      throw new Error(`watch: the first sync made ${writes().length} of ${policyCount} creates within 30 s`);
    }
    await new Promise((done) => setTimeout(done, 1_000));
    for (let edit = 1; edit <= edits; edit++) {
      const before = seen.length;
      const t0 = performance.now();
      await writeFile(file, config(edit));
      const ok = await waitFor(() => seen.slice(before).some((s) => s.method !== 'GET'), 15_000);
      if (!ok) {
        notes.push(`edit ${edit}: no write request within 15 s`);
        continue;
      }
      const after = seen.slice(before);
      const firstWrite = after.find((s) => s.method !== 'GET');
      const first = after[0];
      if (firstWrite !== undefined) total.push(firstWrite.at - t0);
      if (first !== undefined) toFirstRequest.push(first.at - t0);
      // Let the apply finish and the debounce timer lapse before the next edit.
      await new Promise((done) => setTimeout(done, 700));
    }
  } finally {
    const exited = once(daemon, 'exit');
    daemon.kill('SIGTERM');
    const timer = setTimeout(() => daemon.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    proxy.server.close();
    proxy.server.closeAllConnections();
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
  const plan = total.map((t, i) => t - (toFirstRequest[i] ?? 0));
  const ms = (v: number): number => round(v, 0);
  return {
    scenario: 'watch-latency',
    rows: [
      {
        debounce,
        edits: total.length,
        median_ms: ms(quantile(total, 0.5)),
        p95_ms: ms(quantile(total, 0.95)),
        to_first_request_median_ms: ms(quantile(toFirstRequest, 0.5)),
        plan_to_write_median_ms: ms(quantile(plan, 0.5)),
        max_ms: ms(Math.max(...total)),
      },
    ],
    targets: { 'median under 500 ms': quantile(total, 0.5) < 500 && total.length === edits },
    notes,
  };
}
