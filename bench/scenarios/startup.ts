/**
 * Scenario 7: how long `acctsync serve` takes from spawn to its first answered request (the
 * bootstrap key listed), next to a bare `node -e 0` started and exited in the same run. Paired runs,
 * so the ratio holds on a loaded machine; the target is the absolute 1 s an idle machine meets.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const cli = resolve('dist/cli/main.js');

async function bareNodeMs(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await once(child, 'exit');
  return performance.now() - t0;
}

/** Spawns `serve`, waits for its address, lists the API keys once, and stops it. */
async function serveReadyMs(): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--token', 'bench'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((done, fail) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1]) done(match[1]);
      });
      child.on('exit', (code) => fail(new Error(`serve exited with ${code} before listening`)));
    });
    const res = await fetch(`${url}/api_keys`, {
      headers: { Authorization: 'Bearer bench', 'Svc-Version': '2' },
    });
    if (res.status !== 200) throw new Error(`serve answered ${res.status}`);
    await res.arrayBuffer();
    return performance.now() - t0;
  } finally {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

export async function serveStartup(quick: boolean): Promise<ScenarioResult> {
  const runs = quick ? 3 : 10;
  const serve: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    bare.push(await bareNodeMs());
    serve.push(await serveReadyMs());
  }
  const serveMs = median(serve);
  const bareMs = median(bare);
  return {
    scenario: 'serve-startup',
    rows: [
      { runs, serve_ready_ms: round(serveMs), bare_node_ms: round(bareMs), ratio: round(serveMs / bareMs) },
    ],
    targets: { 'serve answers its first request within 1 s (median)': serveMs < 1000 },
    notes: ['ratio: serve ready time over a bare node process started and exited in the same run'],
  };
}
