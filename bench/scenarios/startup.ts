/**
 * Start-up: how long the built CLI takes for `--help`, for `validate examples/account/` and for
 * `serve` to answer its first request (the bootstrap key listed), each next to a bare `node -e 0`
 * started and exited just before it. Runs alternate bare and acctsync, so both see the same machine
 * load; the ratio of the medians is the figure, against the goals of issue #33.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import type { ScenarioResult } from '../lib/report.js';
import { median, round } from '../lib/stats.js';

const cli = resolve('dist/cli/main.js');

/** Wall time of a process from spawn to exit; throws when it fails. */
async function exitedMs(args: readonly string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${code}`);
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

interface Case {
  readonly command: string;
  /** The goal: at most this many times a bare node start. */
  readonly goal: number;
  readonly run: () => Promise<number>;
}

const cases: readonly Case[] = [
  { command: 'acctsync --help', goal: 2, run: () => exitedMs([cli, '--help']) },
  {
    command: 'acctsync validate examples/account/',
    goal: 3,
    run: () => exitedMs([cli, 'validate', 'examples/account/']),
  },
  { command: 'acctsync serve (first answer)', goal: 2, run: serveReadyMs },
];

export async function startup(quick: boolean): Promise<ScenarioResult> {
  const runs = quick ? 5 : 15;
  const bareNode = (): Promise<number> => exitedMs(['-e', '0']);
  // One untimed round first: the page cache holds the files, as it does for a command run twice.
  for (const c of cases) await c.run();
  const rows = [];
  const targets: Record<string, boolean> = {};
  for (const c of cases) {
    const bare: number[] = [];
    const timed: number[] = [];
    for (let i = 0; i < runs; i++) {
      bare.push(await bareNode());
      timed.push(await c.run());
    }
    const ratio = median(timed) / median(bare);
    rows.push({
      command: c.command,
      runs,
      ms: round(median(timed)),
      bare_node_ms: round(median(bare)),
      ratio: round(ratio),
      goal: `<= ${c.goal}x`,
    });
    targets[`${c.command} within ${c.goal}x a bare node start (medians)`] = ratio <= c.goal;
  }
  return {
    scenario: 'startup',
    rows,
    targets,
    notes: [
      'bare_node_ms: `node -e 0`, each run just before the command it is paired with',
      'serve: from spawn to the first answered request (GET /api_keys)',
    ],
  };
}
